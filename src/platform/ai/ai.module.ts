import { Module } from '@nestjs/common';
import { ChatCompletions } from './chat-completions';
import { Embeddings } from './embeddings';

/** The OpenAI-compatible clients (chat, embeddings) shared by translations and conversation analysis. */
@Module({ providers: [ChatCompletions, Embeddings], exports: [ChatCompletions, Embeddings] })
export class AiModule {}
