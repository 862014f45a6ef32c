// The mean of published decimal figures, rounded half away from zero in decimal arithmetic: binary
// floating point would store 6.8125 as 6.81249999… and round a mean that ends in an exact half down.

/** The digits of a finite number as its shortest decimal text, scaled to `places` decimals. */
function scaled(value: number, places: number): bigint {
  const [whole = '0', fraction = ''] = Math.abs(value).toString().split('.');
  const digits = BigInt(whole + fraction.padEnd(places, '0'));
  return value < 0 ? -digits : digits;
}

function decimalsOf(value: number): number | undefined {
  const text = Math.abs(value).toString();
  if (/e/i.test(text)) return undefined; // exponent notation: too small or large for a published figure
  return text.split('.')[1]?.length ?? 0;
}

/** Mean of `values` rounded to `places` decimals, half away from zero; null for none. */
export function decimalMean(values: readonly number[], places: number): number | null {
  if (values.length === 0) return null;
  const decimals = values.map(decimalsOf);
  if (decimals.some((d) => d === undefined)) {
    const factor = 10 ** places;
    return Math.round((values.reduce((sum, v) => sum + v, 0) / values.length) * factor) / factor;
  }
  const scale = Math.max(...(decimals as number[]));
  const sum = values.reduce((total, value) => total + scaled(value, scale), 0n);
  const numerator = sum * 10n ** BigInt(places);
  const denominator = BigInt(values.length) * 10n ** BigInt(scale);
  let quotient = numerator / denominator;
  const remainder = numerator % denominator;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice >= denominator) quotient += numerator < 0n ? -1n : 1n;
  return Number(quotient) / 10 ** places;
}
