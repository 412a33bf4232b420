import type { Address } from '@claims/contracts';

/** An address a line a part, the empty parts left out; the phone only where the reader may need to call. */
export function AddressBlock({ address, withPhone = false }: { address: Address; withPhone?: boolean }) {
  const lines = [
    address.name,
    address.address1,
    address.address2,
    [address.city, address.provinceCode ?? address.province, address.zip].filter(Boolean).join(' '),
    address.country,
    withPhone ? address.phone : null,
  ].filter((line): line is string => Boolean(line));
  return (
    <address>
      {lines.map((line) => (
        <span key={line} className="address-line">
          {line}
        </span>
      ))}
    </address>
  );
}
