import { expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ApprovalView } from '@/lib/approvals/get-approval-or-throw';
import type { savedContractDraftBody } from '@/lib/api/handlers/contracts';
import type { PostCallRequestSchema } from '@/lib/validation/validate-post-call';
import type { PreCallRequestSchema } from '@/lib/validation/validate-pre-call';
import type { ValidationResponse as ServerValidationResponse } from '@/lib/validation/validation-response';
import type { Approval, PostCallRequest, PreCallRequest, SavedContractDraft, ValidationResponse } from './wire-types.ts';

// Compile-time only (tsc checks it; the runtime assertions are no-ops): the SDK's hand-written
// wire types must stay what the server's schemas accept and return. Type-only imports, so
// nothing of the server runs here.

it('requests the SDK builds are requests the server accepts', () => {
  expectTypeOf<PreCallRequest>().toExtend<z.input<typeof PreCallRequestSchema>>();
  expectTypeOf<PostCallRequest>().toExtend<z.input<typeof PostCallRequestSchema>>();
});

it('answers the server gives fit the SDK types', () => {
  expectTypeOf<ServerValidationResponse>().toExtend<ValidationResponse>();
  expectTypeOf<ApprovalView>().toExtend<Approval>();
  expectTypeOf<Approval>().toExtend<ApprovalView>();
  expectTypeOf<ReturnType<typeof savedContractDraftBody>>().toExtend<SavedContractDraft>();
});
