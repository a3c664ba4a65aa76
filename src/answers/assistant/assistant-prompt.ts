import { FOLLOW_UP_MARKER } from '../answer-prompt';
import type { ToolSpec } from './tool-chat';

/** The tools of the server, which the assistant runs itself. */
export const SEARCH_TOOL = 'search_documentation';
export const READ_PAGE_TOOL = 'read_page';

export const SERVER_TOOLS: ToolSpec[] = [
  {
    name: SEARCH_TOOL,
    description:
      'Search the documentation. Answers the pages that match best: their space and page ids, ' +
      'titles, where they are, and the beginning of their text.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for, in a few words.' } },
      required: ['query'],
    },
  },
  {
    name: READ_PAGE_TOOL,
    description: 'Read a page of the documentation in full, by the ids the search gave.',
    parameters: {
      type: 'object',
      properties: {
        spaceId: { type: 'string', description: 'The space id of the page.' },
        pageId: { type: 'string', description: 'The page id.' },
      },
      required: ['spaceId', 'pageId'],
    },
  },
];

/**
 * The rules of the assistant: answer from the documentation only, found with the tools; the
 * owners' instructions; the page the reader is on.
 */
export function assistantSystemPrompt(input: {
  siteTitle: string;
  instructions: string;
  currentPage?: string;
}): string {
  const rules = [
    `You are the assistant of the documentation "${input.siteTitle}": you answer its readers ` +
      'in a conversation.',
    `Before answering a question about the documentation, search it with ${SEARCH_TOOL}, and ` +
      `read a page with ${READ_PAGE_TOOL} when its beginning is not enough.`,
    'Answer only from what the tools give: never from what you know otherwise. When the ' +
      'documentation does not answer the question, say so, and do not guess.',
    'Answer in the language of the reader’s last message, in Markdown, briefly, and name the ' +
      'pages you answer from by their title.',
    `After the answer, write a line "${FOLLOW_UP_MARKER}" and under it up to 3 short questions ` +
      'the reader may ask next, one per line, each starting with "- ".',
  ];
  if (input.currentPage) rules.push(`The reader is on the page "${input.currentPage}".`);
  return input.instructions.trim() === ''
    ? rules.join('\n')
    : `${rules.join('\n')}\n\nInstructions from the documentation's owners:\n${input.instructions.trim()}`;
}
