/** A statement's label for counting: its name when it has one, else its first words (at most `width` characters). */
export function statementLabel(config: unknown, width: number): string {
  if (typeof config === 'string') return config.replace(/\s+/g, ' ').trim().slice(0, width);
  if (config && typeof config === 'object') {
    const { name, text } = config as { name?: string; text?: string };
    if (name) return `[named] ${name}`;
    if (typeof text === 'string') return text.replace(/\s+/g, ' ').trim().slice(0, width);
  }
  return '(other)';
}
