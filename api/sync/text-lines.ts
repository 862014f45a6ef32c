// Splits UTF-8 bytes into lines (LF or CRLF) with 1-based numbers, decoding a slice at a time, so a
// large file (FHFA's 37.7 MB NMDB CSV) is never held as one string besides its bytes.
const SLICE_BYTES = 1 << 20;

export function* textLines(bytes: Uint8Array): Generator<{ line: number; text: string }> {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let line = 0;
  for (let offset = 0; offset < bytes.length; offset += SLICE_BYTES) {
    const text = carry + decoder.decode(bytes.subarray(offset, offset + SLICE_BYTES), { stream: true });
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      line += 1;
      const end = newline > from && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      yield { line, text: text.slice(from, end) };
      from = newline + 1;
    }
    carry = text.slice(from);
  }
  carry += decoder.decode();
  if (carry.length > 0) yield { line: line + 1, text: carry.endsWith('\r') ? carry.slice(0, -1) : carry };
}
