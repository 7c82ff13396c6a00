/**
 * Free text from forms is stored in PostgreSQL, which cannot hold NUL in `text`, and other control
 * characters (except tab and line breaks) or unpaired surrogates mean nothing in a name or a message. Schemas refuse
 * them with a field message instead of letting the insert fail (found by tests/fuzz/fuzz.js).
 */
export const INVALID_CHARACTERS = "Remove the special characters from this field";

export function noControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return false;
    // An unpaired UTF-16 surrogate is not a character: PostgreSQL's jsonb refuses it.
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i += 1;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** For search boxes: control characters become spaces (a search for "a\0b" finds what "a b" does). */
export function stripControlChars(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    out += c < 32 || c === 127 ? " " : value[i];
  }
  return out;
}
