import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OutboundHttp } from '../../platform/outbound-http';
import { FLUSH, GitProtocolError, PktReader, pktLine, pktText, type Pkt } from './pkt-line';

/*
 * Git's smart HTTP protocol (gitprotocol-http, version 0/1), as a fetch of one ref and a push
 * to one ref need it: the pack travels between the remote and a file on disk as a stream, so
 * that a repository of any size is never held in memory.
 */

const ZERO_OID = '0000000000000000000000000000000000000000';
const AGENT = 'agent=bindery';
/** The longest silence of a remote while a pack is transferred. */
const TRANSFER_IDLE_MS = 120_000;

export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** What a remote offers: its refs (full names), their peeled tags, its capabilities. */
export interface Advertisement {
  /** The repository's URL, after the remote's redirects. */
  url: string;
  refs: Map<string, string>;
  peeled: Map<string, string>;
  capabilities: Set<string>;
  /** `HEAD` → the branch it names, when the remote says. */
  symrefs: Map<string, string>;
}

/** The remote answered an HTTP error status. */
export class GitHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly statusMessage: string,
  ) {
    super(`HTTP ${statusCode}`);
  }
}

/** The remote refused a push (`ng`), or the ref moved since it was read (not forced). */
export class PushRejectedError extends Error {
  constructor(
    message: string,
    readonly reason: 'not-fast-forward' | 'refused',
  ) {
    super(message);
  }
}

/** The remote's refs and capabilities for `service`. */
export async function discover(
  http: OutboundHttp,
  remote: { url: string; headers: Record<string, string> },
  service: GitService,
): Promise<Advertisement> {
  const base = remote.url.replace(/\/+$/, '');
  const response = await http.fetch(`${base}/info/refs?service=${service}`, {
    headers: { ...remote.headers, accept: `application/x-${service}-advertisement, */*` },
  });
  if (response.status !== 200) {
    throw new GitHttpError(response.status, STATUS_CODES[response.status] ?? '');
  }
  const type = response.headers['content-type'] ?? '';
  if (!type.startsWith(`application/x-${service}-advertisement`)) {
    throw new GitProtocolError(
      'The remote does not speak Git’s smart HTTP protocol (a “dumb” server is not supported).',
    );
  }
  const url = response.url.replace(/\/info\/refs\?.*$/, '');
  const reader = new PktReader([response.body]);
  let pkt = await reader.read();
  if (pkt instanceof Buffer && pktText(pkt).startsWith('# service=')) {
    if ((await reader.read()) !== 'flush') throw new GitProtocolError('Unexpected advertisement.');
    pkt = await reader.read();
  }
  const advertisement: Advertisement = {
    url,
    refs: new Map(),
    peeled: new Map(),
    capabilities: new Set(),
    symrefs: new Map(),
  };
  let first = true;
  for (; pkt instanceof Buffer; pkt = await reader.read()) {
    let line = pktText(pkt);
    if (first) {
      const nul = line.indexOf('\0');
      if (nul >= 0) {
        for (const capability of line
          .slice(nul + 1)
          .split(' ')
          .filter(Boolean)) {
          advertisement.capabilities.add(capability);
          const symref = /^symref=([^:]+):(.+)$/.exec(capability);
          if (symref) advertisement.symrefs.set(symref[1], symref[2]);
        }
        line = line.slice(0, nul);
      }
      first = false;
    }
    const [oid, name] = line.split(' ');
    if (!/^[0-9a-f]{40}$/.test(oid) || !name || name === 'capabilities^{}') continue;
    if (name.endsWith('^{}')) advertisement.peeled.set(name.slice(0, -3), oid);
    else advertisement.refs.set(name, oid);
  }
  return advertisement;
}

/**
 * The full name of the ref `ref` names among the remote's (as Git resolves a short name:
 * itself, then under refs/, refs/tags/, refs/heads/, refs/remotes/), or undefined.
 */
export function resolveRef(advertisement: Advertisement, ref: string): string | undefined {
  const candidates = [
    ref,
    `refs/${ref}`,
    `refs/tags/${ref}`,
    `refs/heads/${ref}`,
    `refs/remotes/${ref}`,
    `refs/remotes/${ref}/HEAD`,
  ];
  return candidates.find((name) => advertisement.refs.has(name));
}

/**
 * Fetches `want` (an advertised oid) with history `depth` 1 where the remote allows it, and
 * writes the pack it sends to `packPath` as it arrives, checking its checksum. Returns the
 * commits the remote says are shallow.
 */
export async function fetchPack(
  http: OutboundHttp,
  remote: { headers: Record<string, string>; maxBytes: number },
  advertisement: Advertisement,
  want: string,
  packPath: string,
): Promise<{ shallow: string[] }> {
  const offered = advertisement.capabilities;
  const sideBand = offered.has('side-band-64k')
    ? 'side-band-64k'
    : offered.has('side-band')
      ? 'side-band'
      : undefined;
  const capabilities = [
    ...(sideBand ? [sideBand] : []),
    ...(offered.has('ofs-delta') ? ['ofs-delta'] : []),
    ...(offered.has('shallow') ? ['shallow'] : []),
    ...(offered.has('no-progress') ? ['no-progress'] : []),
    AGENT,
  ];
  const shallow = offered.has('shallow');
  const request = Buffer.concat([
    pktLine(`want ${want} ${capabilities.join(' ')}\n`),
    ...(shallow ? [pktLine('deepen 1\n')] : []),
    FLUSH,
    pktLine('done\n'),
  ]);
  const response = await http.stream(`${advertisement.url}/git-upload-pack`, {
    method: 'POST',
    headers: {
      ...remote.headers,
      'content-type': 'application/x-git-upload-pack-request',
      accept: 'application/x-git-upload-pack-result',
    },
    body: request,
    timeoutMs: TRANSFER_IDLE_MS,
    maxBytes: remote.maxBytes,
  });
  const reader = new PktReader(response.body);
  try {
    if (response.status !== 200) {
      throw new GitHttpError(response.status, STATUS_CODES[response.status] ?? '');
    }
    const shallows: string[] = [];
    if (shallow) {
      // The commits the history is cut at, then a flush.
      for (let pkt = await reader.read(); pkt !== 'flush'; pkt = await reader.read()) {
        if (!(pkt instanceof Buffer)) throw new GitProtocolError('The remote sent no pack.');
        const line = pktText(pkt);
        if (line.startsWith('ERR ')) throw new GitProtocolError(line.slice(4));
        if (line.startsWith('shallow ')) shallows.push(line.slice(8));
        else if (!line.startsWith('unshallow ')) {
          throw new GitProtocolError(`Unexpected answer ${JSON.stringify(line)}.`);
        }
      }
    }
    // NAK (no common commit: none was offered), then the pack.
    const acknowledgement = await reader.read();
    if (!(acknowledgement instanceof Buffer))
      throw new GitProtocolError('The remote sent no pack.');
    const ack = pktText(acknowledgement);
    if (ack.startsWith('ERR ')) throw new GitProtocolError(ack.slice(4));
    if (ack !== 'NAK') throw new GitProtocolError(`Unexpected answer ${JSON.stringify(ack)}.`);
    await writePack(sideBand ? demux(reader) : reader.rest(), packPath);
    return { shallow: shallows };
  } finally {
    await reader.close();
    response.body.destroy();
  }
}

/**
 * Sends the pack at `packPath` (null: none, for a push of objects the remote has) and the
 * update of `ref` from `old` to `next`, and reads the remote's report.
 */
export async function pushPack(
  http: OutboundHttp,
  remote: { headers: Record<string, string> },
  advertisement: Advertisement,
  update: { ref: string; old: string | null; next: string },
  packPath: string | null,
): Promise<void> {
  const offered = advertisement.capabilities;
  const sideBand = offered.has('side-band-64k') ? 'side-band-64k' : undefined;
  const capabilities = [
    ...(offered.has('report-status') ? ['report-status'] : []),
    ...(sideBand ? [sideBand] : []),
    AGENT,
  ];
  const command = Buffer.concat([
    pktLine(`${update.old ?? ZERO_OID} ${update.next} ${update.ref}\0${capabilities.join(' ')}\n`),
    FLUSH,
  ]);
  const packSize = packPath ? (await stat(packPath)).size : 0;
  const body = Readable.from(
    (async function* () {
      yield command;
      if (packPath) yield* createReadStream(packPath) as AsyncIterable<Buffer>;
    })(),
  );
  const response = await http.stream(`${advertisement.url}/git-receive-pack`, {
    method: 'POST',
    headers: {
      ...remote.headers,
      'content-type': 'application/x-git-receive-pack-request',
      accept: 'application/x-git-receive-pack-result',
      'content-length': String(command.length + packSize),
    },
    body,
    timeoutMs: TRANSFER_IDLE_MS,
  });
  const reader = new PktReader(response.body);
  try {
    if (response.status !== 200) {
      throw new GitHttpError(response.status, STATUS_CODES[response.status] ?? '');
    }
    if (!offered.has('report-status')) return;
    const report = new PktReader(sideBand ? demux(reader) : reader.rest());
    for (let pkt = await report.read(); pkt instanceof Buffer; pkt = await report.read()) {
      const line = pktText(pkt);
      if (line.startsWith('unpack ') && line !== 'unpack ok') {
        throw new PushRejectedError(
          `The remote could not unpack the push: ${line.slice(7)}.`,
          'refused',
        );
      }
      if (line.startsWith('ng ')) {
        const reason = line.slice(3 + update.ref.length + 1);
        throw new PushRejectedError(
          `The remote refused the push${reason ? `: ${reason}` : ''}.`,
          /non-fast-forward|fetch first|stale/.test(reason) ? 'not-fast-forward' : 'refused',
        );
      }
    }
  } finally {
    await reader.close();
    response.body.destroy();
  }
}

/** The data band of a side-band stream; a message on the error band fails it. */
async function* demux(reader: PktReader): AsyncGenerator<Buffer> {
  for (let pkt: Pkt | null = await reader.read(); pkt !== null; pkt = await reader.read()) {
    if (pkt === 'flush') return;
    if (pkt === 'delim' || pkt.length === 0) continue;
    const band = pkt[0];
    if (band === 1) yield pkt.subarray(1);
    else if (band === 3) {
      throw new GitProtocolError(`The remote failed: ${pkt.subarray(1).toString('utf8').trim()}`);
    }
  }
}

/**
 * Writes a pack from its chunks to `path` as they come, checking the SHA-1 it ends with (of
 * every byte before it).
 */
async function writePack(chunks: AsyncIterable<Buffer>, path: string): Promise<void> {
  const hash = createHash('sha1');
  let tail: Buffer = Buffer.alloc(0);
  const file = createWriteStream(path);
  const written = pipeline(
    (async function* () {
      for await (const chunk of chunks) {
        const all = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
        const keep = Math.min(20, all.length);
        hash.update(all.subarray(0, all.length - keep));
        tail = Buffer.from(all.subarray(all.length - keep));
        yield chunk;
      }
    })(),
    file,
  );
  await written;
  if (tail.length !== 20 || !hash.digest().equals(tail)) {
    throw new GitProtocolError('The pack the remote sent is corrupt (its checksum differs).');
  }
}
