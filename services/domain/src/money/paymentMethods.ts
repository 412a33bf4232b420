import type { PaymentMethod } from '@claims/contracts';

/** Eight digits in a row (spaces, dots and hyphens between them ignored) is more than any brand, bank or provider reference needs. */
const LONG_NUMBER = /\d(?:[\s.-]*\d){7,}/;

/**
 * Why a payment method may not be kept, or null: only a card's or account's last four digits are, and a
 * text field holding a long run of digits is most likely a full card or account number pasted in.
 */
export function paymentMethodProblem(method: PaymentMethod): string | null {
  if ('last4' in method && !/^\d{4}$/.test(method.last4)) {
    return 'Enter only the last four digits of the card or account, never the full number.';
  }
  const texts =
    method.kind === 'card'
      ? [method.brand]
      : method.kind === 'bank_account'
        ? [method.bankName]
        : [method.provider, method.reference];
  if (texts.some((text) => LONG_NUMBER.test(text))) {
    return "That looks like a full card or account number. Only the last four digits (or the payment provider's reference) are kept.";
  }
  return null;
}
