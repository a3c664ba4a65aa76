/**
 * What the ask operations answer (GitBook's `SearchAIAnswerStream` events, `SearchAIAnswer`),
 * as tests read them, and the error check they share.
 */

/** GitBook's `SearchAIAnswerSourcePage`. */
export interface AnswerSource {
  type: 'page';
  page: string;
  revision: string;
  space: string;
  sections: string[];
}

/** One event of a streamed answer. */
export interface AnswerEvent {
  type: 'answer';
  answer: {
    answer?: { markdown?: string; document?: { object: string; nodes: unknown[] } };
    followupQuestions: string[];
    sources: AnswerSource[];
  };
}

/** The answer is the error `code`, `{error:{code,message}}`, its message containing `text`. */
export function expectError(res: { status: number; body: unknown }, code: number, text = '') {
  expect({ status: res.status, body: res.body }).toEqual({
    status: code,
    body: { error: { code, message: expect.stringContaining(text) } },
  });
}
