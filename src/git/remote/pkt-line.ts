/**
 * Git's pkt-line framing (gitprotocol-common): four hex digits of length (itself included),
 * then the payload; `0000` is a flush, `0001` a delimiter. Side-band-64k puts a band number
 * before each payload: 1 data, 2 progress, 3 a fatal error.
 */

/** The largest payload of one pkt-line (65520 in all, the length included). */
export const MAX_PKT_PAYLOAD = 65516;

export const FLUSH = Buffer.from('0000');

/** One pkt-line holding `payload`. */
export function pktLine(payload: string | Buffer): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  if (data.length > MAX_PKT_PAYLOAD) throw new Error('pkt-line payload too long');
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, '0')), data]);
}

export type Pkt = Buffer | 'flush' | 'delim';

/** A protocol message from the remote that is not what Git's protocol says. */
export class GitProtocolError extends Error {}

/**
 * Reads pkt-lines from a stream of chunks as they arrive, keeping only what is not read yet:
 * a pack of any size passes through in chunks.
 */
export class PktReader {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly chunks: AsyncIterator<Buffer>;
  private ended = false;

  constructor(source: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer | Uint8Array>) {
    const iterator =
      Symbol.asyncIterator in source
        ? source[Symbol.asyncIterator]()
        : (async function* () {
            yield* source;
          })();
    this.chunks = {
      next: async () => {
        const next = await iterator.next();
        return next.done ? next : { done: false, value: Buffer.from(next.value) };
      },
      return: async () => {
        await iterator.return?.();
        return { done: true, value: undefined };
      },
    };
  }

  /** The next pkt-line, or null at the end of the stream. */
  async read(): Promise<Pkt | null> {
    if (!(await this.fill(4))) {
      if (this.buffer.length === 0) return null;
      throw new GitProtocolError('The remote ended its answer in the middle of a line.');
    }
    const header = this.buffer.subarray(0, 4).toString('latin1');
    if (!/^[0-9a-f]{4}$/i.test(header)) {
      throw new GitProtocolError(
        `The remote did not answer in Git's protocol (${JSON.stringify(header)}).`,
      );
    }
    const length = Number.parseInt(header, 16);
    if (length === 0 || length === 1) {
      this.buffer = this.buffer.subarray(4);
      return length === 0 ? 'flush' : 'delim';
    }
    if (length < 4) throw new GitProtocolError(`Invalid pkt-line length ${length}.`);
    if (!(await this.fill(length))) {
      throw new GitProtocolError('The remote ended its answer in the middle of a line.');
    }
    const payload = this.buffer.subarray(4, length);
    this.buffer = this.buffer.subarray(length);
    return payload;
  }

  /** What follows the lines read, as it comes (a pack sent without side-band). */
  async *rest(): AsyncGenerator<Buffer> {
    if (this.buffer.length > 0) {
      const buffered = this.buffer;
      this.buffer = Buffer.alloc(0);
      yield buffered;
    }
    while (!this.ended) {
      const next = await this.chunks.next();
      if (next.done) {
        this.ended = true;
        return;
      }
      yield next.value;
    }
  }

  /** Stops reading the source. */
  async close(): Promise<void> {
    this.ended = true;
    await this.chunks.return?.();
  }

  private async fill(size: number): Promise<boolean> {
    while (this.buffer.length < size) {
      if (this.ended) return false;
      const next = await this.chunks.next();
      if (next.done) {
        this.ended = true;
        return false;
      }
      this.buffer =
        this.buffer.length === 0 ? next.value : Buffer.concat([this.buffer, next.value]);
    }
    return true;
  }
}

/** A pkt-line's text without its line feed. */
export function pktText(pkt: Buffer): string {
  const text = pkt.toString('utf8');
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
