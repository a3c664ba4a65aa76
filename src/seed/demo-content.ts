/** Ids the demo pages link to each other and to their image by (stable refs, `/pages/<id>`). */
export interface DemoContentIds {
  spaceId: string;
  organizationId: string;
  welcomePage: string;
  changeRequestsPage: string;
  publishingPage: string;
  imageFile: string;
  /** PUBLIC_URL: where the API and its Swagger UI answer. */
  publicUrl: string;
}

export interface DemoPage {
  id: string;
  title: string;
  description: string;
  markdown: string;
}

/**
 * The demo space's pages, as markdown. Links to pages and files are in the stable form
 * (`/pages/<id>`, `/files/<id>`), which the seed turns into content refs. Commands use `$TOKEN`
 * rather than the demo token itself: a secret is printed once, never stored in content.
 */
export function demoPages(ids: DemoContentIds): DemoPage[] {
  const api = `${ids.publicUrl}/v1`;
  const space = `${api}/spaces/${ids.spaceId}`;
  const org = `${api}/orgs/${ids.organizationId}`;
  return [
    {
      id: ids.welcomePage,
      title: 'Welcome to Bindery',
      description: 'What this API does, and how to try it.',
      markdown: `Bindery is a self-hosted management API for documentation, wire-compatible with GitBook's public API: the same routes, the same JSON, the same bearer tokens. This space was made by the first start so that there is something to read and change.

![An open book](/files/${ids.imageFile} "Bindery")

## What you can do

- **Organize**: organizations, members, teams, collections and spaces, with roles and permissions.
- **Write**: pages and files, edited through change requests that are reviewed and merged.
- **Publish**: docs sites with sections, share links, redirects and search.
- **Follow**: an audit log of every write, and signed webhooks.

## Try it

Set \`TOKEN\` to the demo API token printed at start, then read this space's content:

\`\`\`bash
curl -H "Authorization: Bearer $TOKEN" ${space}/content
\`\`\`

Each page of the list has an id; \`GET ${space}/content/page/<pageId>\` answers one with its document.

## Where next

- [Change requests](/pages/${ids.changeRequestsPage}): propose a change, review it and merge it.
- [Publishing a site](/pages/${ids.publishingPage}): put this space on a docs site.
- Every operation, with what it takes and answers, is in the [API reference](${ids.publicUrl}/docs) (Swagger UI).
`,
    },
    {
      id: ids.changeRequestsPage,
      title: 'Change requests',
      description: 'Propose, review and merge changes to a space.',
      markdown: `A change request is a branch of the space's content: edit it as much as you like, ask for a review, then merge it into the space.

## Open one

\`\`\`bash
curl -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
     -d '{"subject":"A new page"}' ${space}/change-requests
\`\`\`

## Edit its content

Send changes in markdown; they apply together, or not at all:

\`\`\`bash
curl -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
     -d '{"changes":[{"operation":"insert_page","title":"FAQ","document":{"markdown":"# FAQ\\n\\nAsk away."}}]}' \\
     ${space}/change-requests/1/content
\`\`\`

## Review and merge

1. Ask someone: \`POST …/change-requests/1/requested-reviewers\`.
2. They approve or ask for changes: \`POST …/change-requests/1/reviews\`.
3. Merge: \`POST …/change-requests/1/merge\`. The space's content moves to the merged revision.

Back to the [welcome page](/pages/${ids.welcomePage}).
`,
    },
    {
      id: ids.publishingPage,
      title: 'Publishing a site',
      description: 'Put a space on a docs site for readers.',
      markdown: `A site publishes one or more spaces for readers, with its own sections, customization and search.

## Create a site and add this space

\`\`\`bash
curl -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
     -d '{"title":"Demo docs"}' ${org}/sites
curl -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
     -d '{"spaceId":"${ids.spaceId}"}' ${org}/sites/<siteId>/site-spaces
\`\`\`

## Publish

\`POST ${org}/sites/<siteId>/publish\` makes it public; share links let you show a site to chosen readers before.

Back to the [welcome page](/pages/${ids.welcomePage}).
`,
    },
  ];
}
