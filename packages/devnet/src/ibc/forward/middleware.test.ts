import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { intermediateReceiver, parseDuration } from './middleware.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

describe('packet-forward metadata', () => {
  it('reads Go durations', () => {
    expect(parseDuration('10m')).toBe(600_000_000_000n);
    expect(parseDuration('1h30m')).toBe(5_400_000_000_000n);
    expect(parseDuration(1500)).toBe(1500n);
    expect(parseDuration(undefined)).toBe(300_000_000_000n);
    expect(() => parseDuration('ten minutes')).toThrow(/invalid duration/);
  });

  it('credits the hop to sha256(sha256(module name) ‖ channel/sender)[:20]', () => {
    const typeHash = sha256('packetfowardmiddleware');
    const hash = sha256(Buffer.concat([typeHash, Buffer.from('channel-0/init1sender')]));
    expect(intermediateReceiver('init', 'channel-0', 'init1sender')).toBe(
      toBech32('init', hash.subarray(0, 20)),
    );
  });
});
