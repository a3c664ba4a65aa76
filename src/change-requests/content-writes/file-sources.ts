import { MAX_FILE_BYTES } from '../../content-engine/files/file-content';
import { TreeChangeError } from '../../content-engine/tree/commit';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import type { FileBytes } from './tree-change-plan';
import type { Change, InsertFileDto } from './dto/update-change-request-content.dto';

/** How many URLs of one request are fetched at the same time. */
const FETCH_CONCURRENCY = 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The files of a request's `insert_files` changes, by change index and file index. */
export class FileSources {
  private constructor(private readonly bytes: Map<string, FileBytes>) {}

  get(change: number, file: number): FileBytes {
    const found = this.bytes.get(`${change}.${file}`);
    if (!found) throw new Error(`No bytes read for file ${file} of change ${change}`);
    return found;
  }

  /**
   * Checks every file of the request (exactly one of `url` and `base64`; `contentType` with
   * `base64`; at most 1 MB), then decodes the base64 ones and fetches the URLs through
   * OutboundHttp (public addresses only, unless configuration lifts it), a few at a time.
   * A 400 names the change and the file.
   */
  static async read(changes: readonly Change[], http: OutboundHttp): Promise<FileSources> {
    const bytes = new Map<string, FileBytes>();
    const fetches: (() => Promise<void>)[] = [];
    for (const [index, change] of changes.entries()) {
      if (change.operation !== 'insert_files') continue;
      for (const [at, file] of change.files.entries()) {
        const fail = (detail: string) =>
          new TreeChangeError(index, change.operation, `files.${at}: ${detail}`);
        const key = `${index}.${at}`;
        if ((file.url === undefined) === (file.base64 === undefined)) {
          throw fail('give exactly one of url and base64');
        }
        if (file.base64 !== undefined) {
          bytes.set(key, { ...described(file), data: decodeBase64(file, fail) });
        } else {
          const url = file.url as string;
          fetches.push(async () => {
            bytes.set(key, await fetchFile(http, file, url, fail));
          });
        }
      }
    }
    await runLimited(fetches, FETCH_CONCURRENCY);
    return new FileSources(bytes);
  }
}

function described(file: InsertFileDto): Omit<FileBytes, 'data'> {
  return { name: file.name, ...(file.contentType ? { contentType: file.contentType } : {}) };
}

function decodeBase64(file: InsertFileDto, fail: (detail: string) => Error): Buffer {
  if (file.contentType === undefined) {
    throw fail('contentType is required with base64');
  }
  const encoded = (file.base64 as string).replace(/\s+/g, '');
  // Checked on the text first: no need to decode a string that is obviously too large.
  if (encoded.length > Math.ceil(MAX_FILE_BYTES / 3) * 4 || !BASE64.test(encoded)) {
    throw fail(
      BASE64.test(encoded)
        ? `the file is larger than ${MAX_FILE_BYTES} bytes (1 MB)`
        : 'base64 is not valid base64',
    );
  }
  const data = Buffer.from(encoded, 'base64');
  if (data.length > MAX_FILE_BYTES) {
    throw fail(`the file is larger than ${MAX_FILE_BYTES} bytes (1 MB)`);
  }
  return data;
}

async function fetchFile(
  http: OutboundHttp,
  file: InsertFileDto,
  url: string,
  fail: (detail: string) => Error,
): Promise<FileBytes> {
  let response;
  try {
    response = await http.fetch(url, { maxBytes: MAX_FILE_BYTES });
  } catch (error) {
    if (error instanceof OutboundHttpError) {
      throw fail(
        error.code === 'too_large'
          ? `the file at url is larger than ${MAX_FILE_BYTES} bytes (1 MB)`
          : `url could not be fetched: ${error.message}`,
      );
    }
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    throw fail(`url answered HTTP ${response.status}`);
  }
  // The server's type when it names one (else the bytes and the name tell).
  const served = response.headers['content-type']?.split(';')[0].trim().toLowerCase();
  return {
    name: file.name,
    ...(file.contentType
      ? { contentType: file.contentType }
      : served && MEDIA_TYPE.test(served) && served !== 'application/octet-stream'
        ? { contentType: served }
        : {}),
    data: response.body,
  };
}

/**
 * Runs `tasks` with at most `limit` at a time. After a failure no other task starts; the
 * failure of the earliest task is thrown once the running ones settle.
 */
async function runLimited(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const failures: { index: number; error: unknown }[] = [];
  const worker = async () => {
    while (next < tasks.length && failures.length === 0) {
      const index = next++;
      try {
        await tasks[index]();
      } catch (error) {
        failures.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failures.length > 0) {
    throw failures.reduce((first, failure) => (failure.index < first.index ? failure : first))
      .error;
  }
}
