import { useId, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Address } from '@claims/contracts';
import {
  addressLabels,
  findProvince,
  listCountries,
  loadProvinces,
  provinceOption,
  provinceOptions,
  type ProvinceTable,
} from '@claims/ui';
import { Alert, Modal } from '@claims/ui/components';

type Field = 'name' | 'address1' | 'address2' | 'city' | 'province' | 'zip' | 'countryCode' | 'phone';
type Draft = Record<Field, string>;

const REQUIRED: Partial<Record<Field, string>> = {
  name: 'Enter the name of the person receiving the package.',
  address1: 'Enter the street address.',
  city: 'Enter the city.',
  countryCode: 'Choose a country.',
};

function draftOf(address: Address, table: ProvinceTable): Draft {
  const province =
    findProvince(table, address.countryCode, address.provinceCode) ??
    findProvince(table, address.countryCode, address.province);
  return {
    name: address.name,
    address1: address.address1,
    address2: address.address2 ?? '',
    city: address.city,
    province: province ? provinceOption(province).value : (address.province ?? ''),
    zip: address.zip ?? '',
    countryCode: address.countryCode,
    phone: address.phone ?? '',
  };
}

/** The draft as an address (docs/product.md#addresses-and-provinces) (province name and short code from the country's list). */
export function addressOf(draft: Draft, table: ProvinceTable): Address {
  const countries = listCountries();
  const provinces = provinceOptions(table, draft.countryCode);
  const chosen = provinces.find((p) => p.value === draft.province);
  const province = chosen ? findProvince(table, draft.countryCode, chosen.value) : undefined;
  const trim = (v: string) => (v.trim() ? v.trim() : undefined);
  return {
    name: draft.name.trim(),
    address1: draft.address1.trim(),
    address2: trim(draft.address2),
    city: draft.city.trim(),
    province: province ? provinceOption(province).label : trim(draft.province),
    provinceCode: province?.code,
    zip: trim(draft.zip),
    country: countries.find((c) => c.code === draft.countryCode)?.name ?? draft.countryCode,
    countryCode: draft.countryCode,
    phone: trim(draft.phone),
  };
}

interface AddressModalProps {
  address: Address;
  onSave: (address: Address) => void;
  onCancel: () => void;
}

/**
 * The 'edit shipping address' modal (docs/product.md#portal-screens); the result becomes the claim's `updatedShippingAddress`. The province
 * lists are fetched when it opens (their own chunk); should that fail, the province is a free-text field.
 */
export function AddressModal(props: AddressModalProps) {
  const provinces = useQuery({
    queryKey: ['provinces'],
    queryFn: () => loadProvinces().catch((): ProvinceTable => ({})),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Modal title="Edit shipping address" onClose={props.onCancel}>
      {provinces.data ? <AddressForm {...props} table={provinces.data} /> : <p role="status">Loading…</p>}
    </Modal>
  );
}

function AddressForm({ address, onSave, onCancel, table }: AddressModalProps & { table: ProvinceTable }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(address, table));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const ids = {
    name: useId(),
    address1: useId(),
    address2: useId(),
    city: useId(),
    province: useId(),
    zip: useId(),
    countryCode: useId(),
    phone: useId(),
  };
  const countries = useMemo(() => listCountries(), []);
  const provinces = provinceOptions(table, draft.countryCode);
  const labels = addressLabels(draft.countryCode);

  const set = (field: Field) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value, ...(field === 'countryCode' ? { province: '' } : {}) }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    for (const [field, message] of Object.entries(REQUIRED) as Array<[Field, string]>)
      if (!draft[field].trim()) next[field] = message;
    if (provinces.length > 0 && !draft.province) next.province = `Choose a ${labels.province.toLowerCase()}.`;
    const parsed = Address.safeParse(addressOf(draft, table));
    if (!parsed.success && Object.keys(next).length === 0) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as Field;
        if (field in ids) next[field] = 'Check this field.';
      }
    }
    setErrors(next);
    if (Object.keys(next).length > 0 || !parsed.success) return;
    onSave(parsed.data);
  }

  const input = (field: Field, label: string, options: { autoComplete: string; optional?: boolean; type?: string }) => (
    <div className="field">
      <label htmlFor={ids[field]}>
        {label}
        {options.optional ? <span className="hint"> (optional)</span> : null}
      </label>
      <input
        id={ids[field]}
        type={options.type ?? 'text'}
        autoComplete={options.autoComplete}
        value={draft[field]}
        maxLength={200}
        onChange={(e) => set(field)(e.target.value)}
        aria-invalid={Boolean(errors[field])}
        aria-describedby={errors[field] ? `${ids[field]}-error` : undefined}
      />
      {errors[field] ? (
        <p id={`${ids[field]}-error`} className="field-error">
          {errors[field]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {Object.keys(errors).length > 0 ? <Alert>Check the highlighted fields.</Alert> : null}
      {input('name', 'Full name', { autoComplete: 'shipping name' })}
      <div className="field">
        <label htmlFor={ids.countryCode}>Country</label>
        <select
          id={ids.countryCode}
          autoComplete="shipping country"
          value={draft.countryCode}
          onChange={(e) => set('countryCode')(e.target.value)}
          aria-invalid={Boolean(errors.countryCode)}
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {input('address1', 'Street address', { autoComplete: 'shipping address-line1' })}
      {input('address2', 'Apartment, suite, etc.', { autoComplete: 'shipping address-line2', optional: true })}
      {input('city', 'City', { autoComplete: 'shipping address-level2' })}
      {provinces.length > 0 ? (
        <div className="field">
          <label htmlFor={ids.province}>{labels.province}</label>
          <select
            id={ids.province}
            autoComplete="shipping address-level1"
            value={draft.province}
            onChange={(e) => set('province')(e.target.value)}
            aria-invalid={Boolean(errors.province)}
            aria-describedby={errors.province ? `${ids.province}-error` : undefined}
          >
            <option value="">Select {labels.province.toLowerCase()}</option>
            {provinces.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
          {errors.province ? (
            <p id={`${ids.province}-error`} className="field-error">
              {errors.province}
            </p>
          ) : null}
        </div>
      ) : (
        input('province', labels.province, { autoComplete: 'shipping address-level1', optional: true })
      )}
      {input('zip', labels.zip, { autoComplete: 'shipping postal-code' })}
      {input('phone', 'Phone', { autoComplete: 'shipping tel', optional: true, type: 'tel' })}
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary">
          Save
        </button>
      </div>
    </form>
  );
}
