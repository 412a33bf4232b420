import { useId, useState, type ReactElement } from 'react';

export interface OrderAndEmail {
  order: string;
  email: string;
}

/**
 * The order number and email pair that both the start page and the claim-link request ask for: the two
 * labelled fields with their errors, and the trimmed pair once both are given.
 */
export function useOrderAndEmail(): { fields: ReactElement; validated: () => OrderAndEmail | null } {
  const orderId = useId();
  const emailId = useId();
  const [orderNumber, setOrderNumber] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ order?: string; email?: string }>({});

  function validated(): OrderAndEmail | null {
    const order = orderNumber.trim();
    const mail = email.trim();
    const found = {
      ...(order ? {} : { order: 'Enter your order number.' }),
      ...(mail ? {} : { email: 'Enter your email address.' }),
    };
    setErrors(found);
    return found.order || found.email ? null : { order, email: mail };
  }

  const fields = (
    <>
      <div className="field">
        <label htmlFor={orderId}>Order number</label>
        <input
          id={orderId}
          name="order"
          type="text"
          autoComplete="off"
          value={orderNumber}
          onChange={(e) => setOrderNumber(e.target.value)}
          aria-invalid={Boolean(errors.order)}
          aria-describedby={errors.order ? `${orderId}-error` : undefined}
          required
        />
        {errors.order ? (
          <p id={`${orderId}-error`} className="field-error" role="alert">
            {errors.order}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={emailId}>Email address</label>
        <input
          id={emailId}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? `${emailId}-error` : undefined}
          required
        />
        {errors.email ? (
          <p id={`${emailId}-error`} className="field-error" role="alert">
            {errors.email}
          </p>
        ) : null}
      </div>
    </>
  );
  return { fields, validated };
}
