// Splits a composed answer into small fragments so it streams the way a model's answer does, and
// clients can render it progressively. Fragments concatenate back to the exact text.
export function splitForStreaming(text: string, maxLength = 48): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const token of text.split(/(\s+)/)) {
    if (current.length + token.length > maxLength && current.length > 0) {
      pieces.push(current);
      current = '';
    }
    current += token;
  }
  if (current) pieces.push(current);
  return pieces;
}
