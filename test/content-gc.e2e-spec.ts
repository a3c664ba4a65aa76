import { randomBytes } from 'node:crypto';
import type { Response } from 'superagent';
import { ContentEngine } from '../src/content-engine/content-engine';
import type { JSONDocument } from '../src/content-engine/documents/document';
import { blobKeyOf } from '../src/content-engine/files/file-content';
import {
  CONTENT_GC_GRACE_MS,
  ContentGarbageCollector,
} from '../src/content-engine/gc/content-garbage-collector';
import { CONTENT_GC_QUEUE } from '../src/content-engine/gc/content-gc-schedule';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import { BlobStore } from '../src/platform/blob-store/blob-store';
import { sha256Hex } from '../src/platform/ids/ids';
import { JobsService } from '../src/platform/jobs/jobs.service';
import { PURGE_SPACES_QUEUE } from '../src/spaces/space-trash';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { TestOrganization } from './helpers/factories';

const DAY_MS = 24 * 60 * 60 * 1000;

const paragraph = (text: string): JSONDocument => ({
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      key: 'p1',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    },
  ],
});

/** Reads a response body as raw bytes, whatever its content type. */
function bytes(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('garbage collection of content (CONTENT_GC_QUEUE)', () => {
  let t: TestApp;
  let writer: ContentWriter;
  let blobs: BlobStore;
  beforeAll(async () => {
    t = await createTestApp();
    writer = t.bindery.app.get(ContentWriter);
    blobs = t.bindery.app.get(BlobStore);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set('2030-01-01T00:00:00Z'));

  /** Sends a job on `queue` and waits for it to complete. */
  async function runJob(queue: string): Promise<void> {
    const jobs = t.bindery.app.get(JobsService);
    const id = await jobs.send(queue, {}, { retryLimit: 0 });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const state = await jobs.state(queue, id);
      if (state === 'completed') return;
      if (state === 'failed') throw new Error(`the ${queue} job failed`);
      if (Date.now() > deadline) throw new Error(`the ${queue} job is still ${state}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Deletes the space, then lets the purge job remove it eight days later. */
  async function purgeSpace(org: TestOrganization, spaceId: string): Promise<void> {
    await org.owner.client.delete(`/v1/spaces/${spaceId}`).expect(204);
    t.clock.advance(8 * DAY_MS);
    await runJob(PURGE_SPACES_QUEUE);
    expect(await t.dataSource.query('SELECT id FROM spaces WHERE id = $1', [spaceId])).toEqual([]);
  }

  async function objectHashes(): Promise<Set<string>> {
    const rows: { hash: string }[] = await t.dataSource.query('SELECT hash FROM content_objects');
    return new Set(rows.map((row) => row.hash));
  }

  const present = async (hashes: Iterable<string>) => {
    const all = await objectHashes();
    return [...hashes].filter((hash) => all.has(hash));
  };

  interface ContentSpace {
    spaceId: string;
    /** The tree of the space's first (empty) revision. */
    initialTree: string;
    pages: string[];
    file: { id: string; data: Buffer };
  }

  /** A space with two pages (one nested) with documents, and a file the first page shows. */
  async function contentSpace(
    org: TestOrganization,
    fileData: Buffer = randomBytes(200),
  ): Promise<ContentSpace> {
    const created = await t.factories.space(org, { empty: true });
    const [{ tree: initialTree }]: { tree: string }[] = await t.dataSource.query(
      'SELECT tree FROM revisions WHERE id = $1',
      [created.revision],
    );
    const suffix = randomBytes(4).toString('hex');
    const file = { id: `file${suffix}`, data: fileData };
    const pages = [`guide${suffix}`, `install${suffix}`];
    await t.dataSource.transaction(async (manager) => {
      const stored = await writer.storeFile(manager, {
        id: file.id,
        name: 'data.bin',
        data: file.data,
      });
      await writer.commitOnPrimary(manager, {
        spaceId: created.id,
        expectedRevisionId: created.revision,
        authorId: org.owner.id,
        type: 'edits',
        changes: [
          { operation: 'insert_file', file: stored.hash },
          {
            operation: 'insert_page',
            id: pages[0],
            meta: { title: 'Guide' },
            document: {
              object: 'document',
              data: {},
              nodes: [
                {
                  object: 'block',
                  type: 'file',
                  key: 'theFile',
                  isVoid: true,
                  data: { ref: { kind: 'file', file: file.id } },
                },
              ],
            },
          },
          {
            operation: 'insert_page',
            id: pages[1],
            meta: { title: 'Install' },
            document: paragraph(`Install ${suffix}`),
            into: pages[0],
          },
        ],
      });
    });
    return { spaceId: created.id, initialTree, pages, file };
  }

  async function expectReadable(org: TestOrganization, spaceId: string, space: ContentSpace) {
    const client = org.owner.client;
    for (const pageId of space.pages) {
      const page = await client.get(`/v1/spaces/${spaceId}/content/page/${pageId}`).expect(200);
      expect((page.body as { id: string }).id).toBe(pageId);
    }
    const file = await client
      .get(`/v1/spaces/${spaceId}/content/files/${space.file.id}`)
      .expect(200);
    const url = (file.body as { downloadURL: string }).downloadURL;
    const download = await t.anonymous
      .get(url.slice(TEST_PUBLIC_URL.length))
      .buffer(true)
      .parse(bytes)
      .expect(200);
    expect(Buffer.compare(download.body as Buffer, space.file.data)).toBe(0);
  }

  it('keeps what a duplicate still reaches, then removes the objects and the blob once nothing does', async () => {
    const org = await t.factories.organization();
    const before = await objectHashes();
    const original = await contentSpace(org);
    const created = [...(await objectHashes())].filter((hash) => !before.has(hash));
    const blobKey = blobKeyOf(sha256Hex(original.file.data));
    const copy = (
      await org.owner.client.post(`/v1/spaces/${original.spaceId}/duplicate`).expect(200)
    ).body as { id: string };

    await purgeSpace(org, original.spaceId);
    await runJob(CONTENT_GC_QUEUE);

    // Only the first, empty tree of the purged space may go: the duplicate reaches the rest.
    const reachable = created.filter((hash) => hash !== original.initialTree);
    expect((await present(reachable)).sort()).toEqual([...reachable].sort());
    expect(await blobs.exists(blobKey)).toBe(true);
    await expectReadable(org, copy.id, original);

    await purgeSpace(org, copy.id);
    await runJob(CONTENT_GC_QUEUE);

    expect(await present(created)).toEqual([]);
    expect(await blobs.exists(blobKey)).toBe(false);
  });

  it('keeps unreachable objects younger than the grace period, and blobs another file shows', async () => {
    const org = await t.factories.organization();
    const old = await contentSpace(org);
    const oldBlob = blobKeyOf(sha256Hex(old.file.data));
    // Another file (another id, so another object) of the same bytes, in a live space.
    const live = await contentSpace(org, old.file.data);
    const before = await objectHashes();
    await purgeSpace(org, old.spaceId);

    // Stored by a commit that has not inserted its revision yet.
    const data = randomBytes(100);
    const fresh = await t.dataSource.transaction(async (manager) => {
      const file = await writer.storeFile(manager, { name: 'pending.bin', data });
      const document = await t.bindery.app
        .get(ContentEngine)
        .put(manager, 'document', paragraph(`Pending ${randomBytes(4).toString('hex')}`));
      return [file.hash, document];
    });
    const freshBlob = blobKeyOf(sha256Hex(data));
    t.clock.advance(CONTENT_GC_GRACE_MS - 60_000);

    const collector = t.bindery.app.get(ContentGarbageCollector);
    const first = await collector.collect();
    expect(first.swept).toBeGreaterThan(0);
    expect(first.reachable).toBeGreaterThan(0);
    expect(await present(before)).not.toEqual([...before]);
    // The purged space's file object went; the bytes stay for the live space's file.
    expect(await blobs.exists(oldBlob)).toBe(true);
    await expectReadable(org, live.spaceId, live);
    expect((await present(fresh)).sort()).toEqual([...fresh].sort());
    expect(await blobs.exists(freshBlob)).toBe(true);

    t.clock.advance(2 * 60_000);
    await runJob(CONTENT_GC_QUEUE);
    expect(await present(fresh)).toEqual([]);
    expect(await blobs.exists(freshBlob)).toBe(false);
  });

  it('keeps an old unreachable object that a commit in flight stores again', async () => {
    const engine = t.bindery.app.get(ContentEngine);
    const document = paragraph(`Reused ${randomBytes(4).toString('hex')}`);
    const [hash] = await t.dataSource.transaction(async (manager) => [
      await engine.put(manager, 'document', document),
    ]);
    // Unreachable for two grace periods; then a commit stores the same content again.
    t.clock.advance(2 * CONTENT_GC_GRACE_MS);
    await t.dataSource.transaction((manager) => engine.put(manager, 'document', document));
    await t.bindery.app.get(ContentGarbageCollector).collect();
    expect(await present(new Set([hash]))).toEqual([hash]);
  });
});
