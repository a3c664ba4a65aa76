import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { postToAiEndpoint } from './ai-endpoint';
import { DEFAULT_RETRY, type RetryOptions } from './retry';

/** Texts per `POST /embeddings` request. */
export const EMBEDDING_BATCH = 64;

/** The embeddings endpoint answered in a way no retry will fix (4xx, malformed reply, not configured). */
export class EmbeddingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingsError';
  }
}

/**
 * Client of an OpenAI-compatible embeddings API (`POST {AI_API_URL}/embeddings` with
 * AI_EMBEDDING_MODEL), with the chat client's key, timeout and retries.
 */
@Injectable()
export class Embeddings {
  constructor(private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.embeddingsConfigured;
  }

  /** The model name, for records of what produced a vector. */
  get model(): string | undefined {
    return this.config.AI_EMBEDDING_MODEL;
  }

  /** One vector per text, in order, asked for EMBEDDING_BATCH texts at a time. */
  async embed(texts: string[], retry: RetryOptions = DEFAULT_RETRY): Promise<number[][]> {
    if (!this.configured) {
      throw new EmbeddingsError(
        'No embedding model is configured (set AI_API_URL and AI_EMBEDDING_MODEL).',
      );
    }
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBEDDING_BATCH) {
      vectors.push(...(await this.embedBatch(texts.slice(i, i + EMBEDDING_BATCH), retry)));
    }
    return vectors;
  }

  private async embedBatch(input: string[], retry: RetryOptions): Promise<number[][]> {
    const text = await postToAiEndpoint(this.config, {
      path: 'embeddings',
      payload: { model: this.config.AI_EMBEDDING_MODEL, input },
      name: 'Embeddings',
      fail: (message) => new EmbeddingsError(message),
      retry,
    });
    return replyVectors(text, input.length);
  }
}

/** The vectors of an embeddings reply, by `index`: as many as asked, all of one length, finite. */
export function replyVectors(text: string, count: number): number[][] {
  let parsed: { data?: { index?: unknown; embedding?: unknown }[] };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new EmbeddingsError('Embeddings endpoint answered something other than JSON');
  }
  if (!Array.isArray(parsed.data) || parsed.data.length !== count) {
    throw new EmbeddingsError(`Embeddings endpoint answered without ${count} items in data`);
  }
  const vectors = new Array<number[] | undefined>(count).fill(undefined);
  parsed.data.forEach((item, position) => {
    const index = item.index === undefined ? position : item.index;
    const embedding = item.embedding;
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      vectors[index] !== undefined ||
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((value) => typeof value === 'number' && Number.isFinite(value))
    ) {
      throw new EmbeddingsError(`Embeddings endpoint answered a malformed item ${position}`);
    }
    vectors[index] = embedding as number[];
  });
  const dimensions = vectors[0]!.length;
  if (vectors.some((vector) => vector!.length !== dimensions)) {
    throw new EmbeddingsError('Embeddings endpoint answered vectors of different lengths');
  }
  return vectors as number[][];
}
