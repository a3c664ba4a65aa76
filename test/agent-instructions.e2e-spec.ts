import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

const text = (value: string, marks: object[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks }],
});
const paragraph = (...nodes: object[]) => ({ object: 'block', type: 'paragraph', nodes });
const document = (...nodes: object[]) => ({ object: 'document', data: {}, nodes });

const INSTRUCTIONS = {
  object: 'document',
  data: { schemaVersion: 1 },
  nodes: [
    {
      object: 'block',
      type: 'heading-1',
      key: 'h1',
      data: {},
      nodes: [text('Tone')],
    },
    paragraph(text('Answer '), text('briefly', [{ object: 'mark', type: 'bold' }]), text('.')),
    {
      object: 'block',
      type: 'list-unordered',
      nodes: [
        { object: 'block', type: 'list-item', nodes: [paragraph(text('Cite the page.'))] },
        { object: 'block', type: 'list-item', nodes: [paragraph(text('Never guess.'))] },
      ],
    },
    { object: 'block', type: 'divider', isVoid: true, data: {} },
  ],
};

/** Blocks nested `depth` levels deep, the innermost a paragraph. */
function nested(depth: number): object {
  let node: object = paragraph(text('deep'));
  for (let i = 1; i < depth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
  return node;
}

describe('agent instructions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const path = (org: { id: string }) => `/v1/orgs/${org.id}/agent-instructions`;

  async function createdAt(org: TestOrganization): Promise<string> {
    return (await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200)).body.createdAt;
  }

  describe('GET /v1/orgs/{organizationId}/agent-instructions (getOrganizationAgentInstructions)', () => {
    it('answers an empty document, dated from the organization, before the first write', async () => {
      const org = await t.factories.organization();
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(path(org)).expect(200);
      expectConforms(res, 'getOrganizationAgentInstructions');
      expect(res.body).toEqual({
        object: 'agent-instructions',
        instructions: { object: 'document', data: {}, nodes: [] },
        updatedAt: await createdAt(org),
        updatedBy: '',
        urls: { location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/agent-instructions` },
      });
    });

    it('answers 403 to a guest', async () => {
      const org = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      const res = await guest.get(path(org)).expect(403);
      expect(res.body).toEqual({ error: { code: 403, message: expect.any(String) } });
    });

    it('answers 404 to a member of another organization and for an unknown organization', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.get(path(org)).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      await stranger.owner.client.get(path({ id: 'no-such-org' })).expect(404);
    });
  });

  describe('PUT /v1/orgs/{organizationId}/agent-instructions (updateOrganizationAgentInstructions)', () => {
    it('writes the instructions, which every member with a role then reads', async () => {
      const org = await t.factories.organization();
      t.clock.set('2026-07-01T09:30:00.000Z');
      const res = await org.owner.client.put(path(org), { instructions: INSTRUCTIONS }).expect(200);
      expectConforms(res, 'updateOrganizationAgentInstructions');
      expect(res.body).toEqual({
        object: 'agent-instructions',
        instructions: INSTRUCTIONS,
        updatedAt: '2026-07-01T09:30:00.000Z',
        updatedBy: org.owner.id,
        urls: { location: `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/agent-instructions` },
      });

      const reader = await t.factories.asMember(org, 'read');
      const read = await reader.get(path(org)).expect(200);
      expectConforms(read, 'getOrganizationAgentInstructions');
      expect(read.body).toEqual(res.body);
    });

    it('replaces them on the next write, recording who wrote and when', async () => {
      const org = await t.factories.organization();
      t.clock.set('2026-07-01T10:00:00.000Z');
      await org.owner.client.put(path(org), { instructions: INSTRUCTIONS }).expect(200);
      const admin = await t.factories.member(org, 'admin');
      t.clock.set('2026-07-02T10:00:00.000Z');
      const replacement = document(paragraph(text('Only answer in French.')));
      const res = await admin.client.put(path(org), { instructions: replacement }).expect(200);
      expectConforms(res, 'updateOrganizationAgentInstructions');
      expect(res.body).toEqual(
        expect.objectContaining({
          instructions: replacement,
          updatedAt: '2026-07-02T10:00:00.000Z',
          updatedBy: admin.id,
        }),
      );
      const read = await org.owner.client.get(path(org)).expect(200);
      expect(read.body).toEqual(res.body);
      const rows = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM agent_instructions WHERE organization_id = $1',
        [org.id],
      );
      expect(rows[0].n).toBe(1);
    });

    it("keeps each organization's instructions to itself", async () => {
      const mine = await t.factories.organization();
      const theirs = await t.factories.organization();
      await theirs.owner.client.put(path(theirs), { instructions: INSTRUCTIONS }).expect(200);
      const res = await mine.owner.client.get(path(mine)).expect(200);
      expect(res.body.instructions).toEqual({ object: 'document', data: {}, nodes: [] });
    });

    it('clears them with an empty document', async () => {
      const org = await t.factories.organization();
      await org.owner.client.put(path(org), { instructions: INSTRUCTIONS }).expect(200);
      const res = await org.owner.client.put(path(org), { instructions: document() }).expect(200);
      expectConforms(res, 'updateOrganizationAgentInstructions');
      const read = await org.owner.client.get(path(org)).expect(200);
      expect(read.body.instructions).toEqual(document());
      expect(read.body.updatedBy).toBe(org.owner.id);
    });

    it.each([
      ['no instructions', {}, 'instructions is required'],
      [
        'instructions as markdown',
        { instructions: '# Be brief' },
        'instructions must be an object',
      ],
      [
        'another object type',
        { instructions: { object: 'page', data: {}, nodes: [] } },
        'instructions.object must be "document"',
      ],
      [
        'a block without a string type',
        {
          instructions: document(paragraph(), paragraph(), { object: 'block', type: 3, nodes: [] }),
        },
        'instructions.nodes[2].type must be a string',
      ],
      [
        'text at the top level',
        { instructions: document(text('loose')) },
        'instructions.nodes[0].object must be "block"',
      ],
      [
        'a leaf without text',
        {
          instructions: document(
            paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 5, marks: [] }] }),
          ),
        },
        'instructions.nodes[0].nodes[0].leaves[0].text must be a string',
      ],
      [
        'nodes nested more than 64 levels deep',
        { instructions: document(nested(64)) },
        'is nested too deeply (at most 64 levels of nodes)',
      ],
      [
        'a document over 200 KB',
        { instructions: document(paragraph(text('x'.repeat(205_000)))) },
        'instructions must be at most 204800 bytes of JSON',
      ],
      ['an unknown field', { instructions: document(), updatedBy: 'me' }, 'updatedBy'],
    ])('refuses %s with 400, changing nothing', async (_label, body, message) => {
      const org = await t.factories.organization();
      await org.owner.client.put(path(org), { instructions: INSTRUCTIONS }).expect(200);
      const res = await org.owner.client.put(path(org), body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } });
      const read = await org.owner.client.get(path(org)).expect(200);
      expect(read.body.instructions).toEqual(INSTRUCTIONS);
    });

    it('accepts nodes nested 64 levels deep', async () => {
      const org = await t.factories.organization();
      // 63 blocks around a paragraph whose text is the 64th level.
      const instructions = document(nested(63));
      const res = await org.owner.client.put(path(org), { instructions }).expect(200);
      expect(res.body.instructions).toEqual(instructions);
    });

    it('answers 403 to members below admin', async () => {
      const org = await t.factories.organization();
      for (const role of ['create', 'read'] as const) {
        const member = await t.factories.asMember(org, role);
        await member.put(path(org), { instructions: INSTRUCTIONS }).expect(403);
      }
      const read = await org.owner.client.get(path(org)).expect(200);
      expect(read.body.updatedBy).toBe('');
    });

    it('answers 404 to the admin of another organization', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const res = await stranger.owner.client
        .put(path(org), { instructions: INSTRUCTIONS })
        .expect(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      const read = await org.owner.client.get(path(org)).expect(200);
      expect(read.body.updatedBy).toBe('');
    });
  });
});
