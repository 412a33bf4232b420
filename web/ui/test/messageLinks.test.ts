import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { messageParts } from '../src/messageLinks.js';

describe('messageParts', () => {
  it('makes the http and https addresses of a message links, leaving sentence punctuation outside', () => {
    expect(messageParts('Tracking: https://track.example/p?id=1&x=2. Thanks (see http://a.example/b)!')).toEqual([
      { kind: 'text', text: 'Tracking: ' },
      { kind: 'link', text: 'https://track.example/p?id=1&x=2', href: 'https://track.example/p?id=1&x=2' },
      { kind: 'text', text: '. Thanks (see ' },
      { kind: 'link', text: 'http://a.example/b', href: 'http://a.example/b' },
      { kind: 'text', text: ')!' },
    ]);
  });

  it('never links another scheme', () => {
    for (const text of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'mailto:a@b.example',
      'ftp://files.example/x',
      'see www.example.com',
    ]) {
      expect(messageParts(text)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('keeps every character of any text, in order, and every link is http or https', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            ' ',
            '.',
            ':',
            '/',
            'h',
            't',
            'p',
            's',
            'x',
            '<',
            '"',
            'javascript:',
            'https://',
            'http://',
          ),
        }),
        (text) => {
          const parts = messageParts(text);
          expect(parts.map((p) => p.text).join('')).toBe(text);
          for (const part of parts) if (part.kind === 'link') expect(new URL(part.href).protocol).toMatch(/^https?:$/);
        },
      ),
    );
  });
});
