import { z } from 'zod';
import { ResolutionReason, ResolutionType } from './enums.js';

/**
 * The agent's tools around a claim (issue 4): labels, metadata, macros and SOPs. Shapes shared by
 * the events, the deciders and the back-office API.
 */

/** A label: trimmed, 1–50 characters, compared case-sensitively as written. */
export const Label = z.string().trim().min(1).max(50);
export const MAX_LABELS_PER_CLAIM = 50;

/** A metadata key: letters, digits, `_ . -`, 1–64 characters, not starting with `__` (no `__proto__`). */
export const MetadataKey = z
  .string()
  .regex(/^(?!__)[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (1–64), not starting with __');
export const MetadataValue = z.string().max(1_000);
export const MAX_METADATA_KEYS = 100;

export const NoteBody = z.string().trim().min(1).max(10_000);

// ---------------------------------------------------------------------------------------------
// Macros

/** A reply macro fills the message box; a resolution macro also presets the resolve form. */
export const MacroKind = z.enum(['reply', 'resolution']);
export type MacroKind = z.infer<typeof MacroKind>;

export const MacroScope = z.enum(['store', 'global']);
export type MacroScope = z.infer<typeof MacroScope>;

/**
 * The placeholders a macro body may use, `{{key}}` (spaces inside the braces allowed). A body naming
 * any other key is refused when the macro is saved, so rendering never leaves one behind.
 */
export const MACRO_PLACEHOLDERS = [
  'customer.name',
  'customer.firstName',
  'customer.email',
  'claim.number',
  'claim.status',
  'claim.type',
  'order.number',
  'store.name',
  'agent.name',
] as const;
export type MacroPlaceholder = (typeof MACRO_PLACEHOLDERS)[number];

/** Matches one `{{ key }}`; the key group is what is looked up. */
export const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

/** Keys named in a body that are not {@link MACRO_PLACEHOLDERS}. */
export function unknownPlaceholders(body: string): string[] {
  const known = new Set<string>(MACRO_PLACEHOLDERS);
  return [...new Set([...body.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1]!).filter((key) => !known.has(key)))];
}

export const MacroBody = z
  .string()
  .max(10_000)
  .superRefine((body, ctx) => {
    const unknown = unknownPlaceholders(body);
    if (unknown.length)
      ctx.addIssue({
        code: 'custom',
        message: `Unknown placeholders: ${unknown.join(', ')}. Known: ${MACRO_PLACEHOLDERS.join(', ')}.`,
      });
  });

/** What a resolution macro presets on the resolve form (the description may use placeholders). */
export const MacroResolutionPreset = z.object({
  resolutionType: ResolutionType,
  reason: ResolutionReason.optional(),
  amount: z.number().nonnegative().optional(),
  description: MacroBody.optional(),
});
export type MacroResolutionPreset = z.infer<typeof MacroResolutionPreset>;

/** A macro's fields, before the kind/preset rule (kept apart so request shapes can extend it). */
export const MacroFields = z.object({
  name: z.string().trim().min(1).max(120),
  kind: MacroKind,
  body: MacroBody,
  resolution: MacroResolutionPreset.nullable().default(null),
});

/** A resolution macro carries a preset; a reply macro none. */
export const withMacroRules = <T extends z.ZodType<{ kind: MacroKind; resolution: MacroResolutionPreset | null }>>(
  schema: T,
) =>
  schema.refine((m) => (m.kind === 'resolution') === (m.resolution !== null), {
    message: 'A resolution macro needs a resolution preset; a reply macro has none.',
    path: ['resolution'],
  });

/** A macro as its author writes it. */
export const MacroInput = withMacroRules(MacroFields);
export type MacroInput = z.infer<typeof MacroInput>;

// ---------------------------------------------------------------------------------------------
// SOPs (standard operating procedures)

/** draft → active → archived; see SOP_TRANSITIONS in the domain. */
export const SopState = z.enum(['draft', 'active', 'archived']);
export type SopState = z.infer<typeof SopState>;

export const SopInput = z.object({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(50_000),
});
export type SopInput = z.infer<typeof SopInput>;
