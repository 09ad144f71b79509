/**
 * What a handler reads of an incoming call, whichever server received it: a Web `Request`
 * under Next, Node's own request on the data plane (building a Web Request there cost more
 * CPU per call than the validation itself).
 */
export interface IncomingCall {
  method: string;
  /** Absolute URL. */
  url: string;
  /** One header by lowercase name, repeated values joined by ", " as in `Headers.get`. */
  header(name: string): string | null;
  /** All headers as Web `Headers`, built only when needed (session cookies). */
  headers(): Headers;
  /** The raw body's bytes, refusing with 413 past `maxBytes` without buffering more than that. */
  bodyBytes(maxBytes: number): Promise<Buffer>;
  /** Aborted when the client goes away before its answer is sent (ends long polls early). */
  readonly signal: AbortSignal;
}
