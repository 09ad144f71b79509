import { timeOrderedId } from './time-ordered-id';

/**
 * A request's id when Toolgate made it (the caller sent no usable x-request-id), handed once to
 * the first evidence record the request writes as that record's own id: its requestId column
 * then stores '' instead of the same 26 characters again (./stored-request-id.ts). Every later
 * record of the request (the MCP gateway's, an admin change that writes several, a call decided
 * again after its first record was refused) gets a new id, so no two records share one.
 *
 * Never made from an id a caller sent: a caller may send the same one on two requests.
 */
export class FirstRecordId {
  private id: string | undefined;

  constructor(generatedRequestId: string) {
    this.id = generatedRequestId;
  }

  /** The request's id the first time; undefined (a new id, chainRecords) every time after. */
  take(): string | undefined {
    const id = this.id;
    this.id = undefined;
    return id;
  }
}

/** A new request id, for a request Toolgate makes itself (the MCP gateway's calls, the demo seed), with its FirstRecordId. */
export function newRequestId(): { requestId: string; firstRecordId: FirstRecordId } {
  const requestId = timeOrderedId();
  return { requestId, firstRecordId: new FirstRecordId(requestId) };
}
