import type { ConversationPart } from '../entities/conversation.entity';
import { contentWords, termCounts, words } from './text-terms';
import { cosine, normalize, type Vector } from './tf-idf';

/** An issue as extraction finds it, before it is stored. */
export interface ExtractedIssue {
  title: string;
  summary: string;
}

export interface ConversationText {
  subject: string | null;
  parts: ConversationPart[];
}

/** A sentence that says the user could not do something, something went wrong, or asks. */
const PROBLEM =
  /\?|\b(not|no|nothing|nobody|never|can'?t|cannot|unable|couldn'?t|doesn'?t|don'?t|didn'?t|won'?t|isn'?t|aren'?t|wasn'?t|stopped|still|keeps?|fail\w*|error\w*|broken|break\w*|issue|problem|trouble|stuck|wrong|missing|lost|bug|crash\w*|how (do|can|to|should)|is there a way|why|where|wondering|confus\w*|unclear|unknown|denied|blocked|reject\w*|expired?|invalid|incorrect|mismatch|twice|double|duplicate|refund|empty|ignored|insecure|loop|timeout|instead|spins|forever|cut off|overlapping|please|need)\b/i;

/** A sentence only of thanks or acknowledgement says nothing of a problem. */
const COURTESY =
  /^(hi|hello|hey|thanks?( you)?|thank you( so much| very much)?|many thanks|cheers|great|perfect|awesome|ok(ay)?|got it|that (worked|works|fixed it|helped)|it works( now)?|all good|have a (nice|good|great) day|regards|best)\b[\s\w,!.']*$/i;

/** Words that open a second, unrelated question in the same message. */
const TOPIC_SHIFT =
  /^(also|another|separately|second(ly)?|additionally|unrelated|one more thing|btw|by the way|on another note|different question|p\.?s\.?)\b/i;

const GREETING =
  /^((hi|hello|hey)( there| team| all| folks| support)?|dear [\w .'-]{1,40}?(?=,)|good (morning|afternoon|evening))[\s,!.:-]+/i;

/** The line that opens a quoted earlier message: "On Mon, 3 Mar 2025, Ann <a@b.c> wrote:". */
const QUOTE_HEADER =
  /^(on\b.{0,300}\bwrote:?|-{2,}\s*(original|forwarded) message\s*-{2,}|(from|de|von):\s.+@.+|_{10,})$/i;

/** A sign-off that starts a signature: "Thanks, Maria — Acme Corp", "Best regards,". */
const SIGN_OFF =
  /^(thanks|thank you|many thanks|thanks again|best|best regards|kind regards|warm regards|regards|cheers|sincerely|all the best)( so much| a lot| in advance)?\s*([,!.:;—–-]|$)/i;

/** Words after a sign-off that are still a signature (name, role, company, phone). */
const SIGNATURE_WORDS = 14;

const MIN_CONTENT_WORDS = 2;
/** Content words a conversation without problem sentences needs to count as one issue. */
const FALLBACK_CONTENT_WORDS = 3;
const TITLE_MAX = 120;
const SUMMARY_MAX = 600;
/** Two problems of one conversation this close are the same issue told twice. */
const SAME_ISSUE_SIMILARITY = 0.1;

interface Draft {
  sentences: string[];
  vector: Vector;
}

/**
 * The issues of a conversation, without AI: what its users said they could not do or asked
 * about. Each problem sentence of a user message starts an issue unless it continues the
 * previous one (same message, no topic shift) or repeats an issue already found (similar words);
 * conversations of thanks only give none. Deterministic: the same text gives the same issues.
 */
export function extractIssues(conversation: ConversationText): ExtractedIssue[] {
  const drafts: Draft[] = [];
  for (const part of conversation.parts) {
    if (part.role !== 'user') continue;
    let current: Draft | undefined;
    for (const sentence of sentencesOf(part.body)) {
      if (COURTESY.test(sentence) || !PROBLEM.test(sentence)) continue;
      if (contentWords(sentence).length < MIN_CONTENT_WORDS) continue;
      const vector = vectorOf(sentence);
      if (current && !TOPIC_SHIFT.test(sentence)) {
        current.sentences.push(sentence);
        current.vector = vectorOf(current.sentences.join(' '));
        continue;
      }
      const earlier = drafts.find((draft) => cosine(draft.vector, vector) >= SAME_ISSUE_SIMILARITY);
      if (earlier && !TOPIC_SHIFT.test(sentence)) {
        earlier.sentences.push(sentence);
        earlier.vector = vectorOf(earlier.sentences.join(' '));
        current = earlier;
        continue;
      }
      current = { sentences: [sentence], vector };
      drafts.push(current);
    }
  }
  // A user who opened a conversation to say something substantial raised something, even
  // without the words above: their first substantial message is the issue.
  if (drafts.length === 0) {
    const opening = conversation.parts
      .filter((part) => part.role === 'user')
      .flatMap((part) => sentencesOf(part.body))
      .filter((sentence) => !COURTESY.test(sentence));
    if (contentWords(opening.join(' ')).length >= FALLBACK_CONTENT_WORDS) {
      drafts.push({ sentences: opening.slice(0, 3), vector: new Map() });
    }
  }
  return drafts.map((draft) => ({
    title: truncate(
      capitalize(draft.sentences[0].replace(TOPIC_SHIFT, '').replace(/^[\s,:-]+/, '')),
      TITLE_MAX,
    ),
    summary: truncate(draft.sentences.join(' '), SUMMARY_MAX),
  }));
}

/**
 * Sentences of a message body, as the user wrote them: markup, greetings, quoted earlier
 * messages ("> …" lines and everything from "On …, … wrote:"), signatures ("-- " and what
 * follows, a closing "Thanks, Maria — Acme Corp" with the lines after it) and "Sent from my …"
 * removed.
 */
export function sentencesOf(body: string): string[] {
  const sentences = ownLines(
    body
      .replace(/<(br|\/p|\/div|\/li|\/blockquote)\s*\/?>/gi, '\n')
      .replace(/<blockquote[\s\S]*?<\/blockquote>/gi, '\n')
      .replace(/<[^>]*>/g, ' ')
      .split(/\r?\n/),
  )
    .join('\n')
    .replace(/[*_`#>]+/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim().replace(GREETING, '').trim())
    .filter((sentence) => sentence.length > 0);
  return withoutSignOff(sentences);
}

/** The lines the author wrote: up to a quoted message or a signature, without quoted lines. */
function ownLines(lines: string[]): string[] {
  const own: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (QUOTE_HEADER.test(line) || /^--\s*$/.test(line)) break;
    if (line.startsWith('>') || /^sent from my\b/i.test(line)) continue;
    own.push(line);
  }
  // A sign-off on its own line followed only by a few short lines (name, company, phone).
  for (let i = 0; i < own.length; i++) {
    if (!SIGN_OFF.test(own[i])) continue;
    const rest = own.slice(i).join(' ');
    if (words(rest).length <= SIGNATURE_WORDS && own.slice(i + 1).every((l) => l.length <= 80)) {
      return own.slice(0, i);
    }
  }
  return own;
}

/** Sentences without a closing sign-off ("Thanks in advance! Maria | Acme Corp") at the end. */
function withoutSignOff(sentences: string[]): string[] {
  for (let i = 1; i < sentences.length; i++) {
    if (!SIGN_OFF.test(sentences[i])) continue;
    if (words(sentences.slice(i).join(' ')).length <= SIGNATURE_WORDS / 2) {
      return sentences.slice(0, i);
    }
  }
  return sentences;
}

function vectorOf(text: string): Vector {
  return normalize(new Map(Object.entries(termCounts(text))));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `text` cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
