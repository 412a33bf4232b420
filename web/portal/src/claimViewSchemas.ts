import '@claims/ui/zod-setup';
import { z } from 'zod';
import { Message } from '@claims/contracts';

/**
 * The schemas a claim link's page parses with, apart from the flow's (schemas.ts): building zod schemas is the costliest
 * part of a slow phone's start-up, and the view needs the claim's, its messages' and the branding's only (the server
 * preloads this module's chunks with the view's HTML, services/api/src/web/claimPagePreload.ts).
 */
export { CustomerClaimView, Message, WhitelabelSettings } from '@claims/contracts';

export const MessageList = z.array(Message);
