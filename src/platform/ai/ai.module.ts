import { Module } from '@nestjs/common';
import { ChatCompletions } from './chat-completions';

/** The OpenAI-compatible chat client shared by translations and conversation analysis. */
@Module({ providers: [ChatCompletions], exports: [ChatCompletions] })
export class AiModule {}
