import { describeParserFailure, schemaProblems } from './parser-errors';
import { problem, ProcessingFailure } from './openapi-problems';

describe('schemaProblems', () => {
  it('keeps the precise errors and drops the noise of alternatives', () => {
    const problems = schemaProblems(
      [
        {
          instancePath: '/paths/~1a/get/responses/200',
          keyword: 'required',
          message: "must have required property 'description'",
          params: { missingProperty: 'description' },
        },
        {
          instancePath: '/paths/~1a/get/responses/200',
          keyword: 'required',
          message: "must have required property '$ref'",
          params: { missingProperty: '$ref' },
        },
        {
          instancePath: '/paths/~1a/get/responses/200',
          keyword: 'oneOf',
          message: 'must match exactly one schema in oneOf',
        },
        {
          instancePath: '/info',
          keyword: 'additionalProperties',
          message: 'must NOT have additional properties',
          params: { additionalProperty: 'titel' },
        },
        {
          instancePath: '/info',
          keyword: 'additionalProperties',
          message: 'must NOT have additional properties',
          params: { additionalProperty: 'titel' },
        },
      ],
      'openapi.yaml',
    );
    expect(problems).toEqual([
      {
        code: 'INVALID_DOCUMENT',
        message:
          "openapi.yaml#/paths/~1a/get/responses/200: must have required property 'description'",
      },
      {
        code: 'INVALID_DOCUMENT',
        message: "openapi.yaml#/info: must NOT have additional properties ('titel')",
      },
    ]);
  });

  it('keeps a oneOf error that nothing more precise explains', () => {
    expect(
      schemaProblems(
        [
          {
            instancePath: '/x',
            keyword: 'oneOf',
            message: 'must match exactly one schema in oneOf',
          },
        ],
        'a.json',
      ),
    ).toEqual([
      { code: 'INVALID_DOCUMENT', message: 'a.json#/x: must match exactly one schema in oneOf' },
    ]);
  });

  it('lists the allowed values of an enum', () => {
    expect(
      schemaProblems(
        [
          {
            instancePath: '/paths/~1a/get/parameters/0/in',
            keyword: 'enum',
            message: 'must be equal to one of the allowed values',
            params: { allowedValues: ['query', 'path'] },
          },
        ],
        'a.json',
      ),
    ).toEqual([
      {
        code: 'INVALID_DOCUMENT',
        message:
          'a.json#/paths/~1a/get/parameters/0/in: must be equal to one of the allowed values: "query", "path"',
      },
    ]);
  });
});

describe('describeParserFailure', () => {
  const context = {
    base: new URL('http://h.test/v1/openapi.json'),
    rootKey: 'openapi.json',
    failures: new Map(),
  };

  it('passes a ProcessingFailure through', () => {
    const failure = new ProcessingFailure([problem('FETCH_ERROR', 'x')]);
    expect(describeParserFailure(failure, context)).toBe(failure.problems);
  });

  it('names the root for any other error', () => {
    expect(
      describeParserFailure(
        new SyntaxError("Validation failed. Duplicate operation id 'a'"),
        context,
      ),
    ).toEqual([
      {
        code: 'INVALID_DOCUMENT',
        message: "openapi.json: Validation failed. Duplicate operation id 'a'",
      },
    ]);
  });
});
