/** `0x1::bigdecimal::BigDecimal` is an unsigned integer scaled by 10^18. */
export const DECIMAL_ONE = 10n ** 18n;

/** The Rust `BigDecimal::new(scaled, 18).normalized().to_string()` that movevm prints for a BigDecimal. */
export function formatDecimal(scaled: bigint): string {
  const whole = scaled / DECIMAL_ONE;
  const fraction = (scaled % DECIMAL_ONE).toString().padStart(18, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/** Parses a decimal string into a BigDecimal's scaled integer (10^18); undefined when malformed. */
export function parseDecimal(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text);
  if (!m) return undefined;
  return BigInt(m[1]!) * DECIMAL_ONE + BigInt((m[2] ?? '').padEnd(18, '0') || '0');
}
