import { Injectable } from '@nestjs/common';
import { documentProblem } from '../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../content-engine/documents/document';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import { IntegrationDispatcher } from '../events/integration-dispatcher';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { computedFiles, computedPages } from './computed-revision';
import { InstallationsPresenter } from './installations.presenter';
import { InstallationsRepository } from './installations.repository';

/** `integration:<integration name>:<content source id>`, GitBook's type of such a source. */
const INTEGRATION_SOURCE = /^integration:([^:]+):([^:]+)$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A content source as the request gives it. */
export interface ComputeSource {
  type?: unknown;
  props?: unknown;
  dependencies?: unknown;
}

/** What a content source's script answered, parsed. */
type Answer = Record<string, unknown>;

/**
 * Content computed by an integration's content source, as GitBook computes it: the source's
 * type names the integration and the source (one of its manifest's `contentSources`); the
 * integration must be installed on the space; a `content_compute_document` (or
 * `content_compute_revision`) event goes to its script with the source's `props` and
 * `dependencies`, for that space installation, and the script answers the content.
 */
@Injectable()
export class ComputedContentService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly presenter: InstallationsPresenter,
    private readonly dispatcher: IntegrationDispatcher,
    private readonly urls: UrlBuilder,
  ) {}

  /** The document the source computes (`content_compute_document`). */
  async document(space: SpaceAccess, source: ComputeSource): Promise<JSONDocument> {
    const answer = await this.compute(space, source, 'content_compute_document');
    const problem = documentProblem(answer.document, 'document');
    if (problem) throw failed(`answered no document: ${problem}`);
    return answer.document as JSONDocument;
  }

  /**
   * The pages and files the source computes (`content_compute_revision`), as GitBook answers a
   * revision's (see computed-revision.ts); computed revisions have no reusable contents.
   */
  async revision(
    space: SpaceAccess,
    source: ComputeSource,
    seed: string,
  ): Promise<{ pages: object[]; files: object[]; reusableContents: object[] }> {
    const answer = await this.compute(space, source, 'content_compute_revision');
    const pages = answer.pages ?? [];
    const files = answer.files ?? [];
    if (!Array.isArray(pages) || !Array.isArray(files)) {
      throw failed('answered pages or files that are not lists');
    }
    const base = this.urls.app('o', space.entity.organizationId, 's', space.id);
    return {
      pages: await computedPages(pages, {
        seed,
        appUrl: (path) => this.urls.under(base, ...path.split('/')),
      }),
      files: computedFiles(files, seed),
      reusableContents: [],
    };
  }

  private async compute(space: SpaceAccess, source: ComputeSource, type: string): Promise<Answer> {
    const match = typeof source.type === 'string' ? INTEGRATION_SOURCE.exec(source.type) : null;
    if (!match) {
      throw invalidInput(
        'source.type must be "integration:<integration>:<sourceId>": Bindery computes the ' +
          'content sources of integrations here (builtin:openapi pages are computed in the ' +
          'space, see API references).',
      );
    }
    if (source.props !== undefined && !isObject(source.props)) {
      throw invalidInput('source.props must be an object');
    }
    const dependencies = source.dependencies ?? {};
    if (!isObject(dependencies)) throw invalidInput('source.dependencies must be an object');
    for (const [name, dependency] of Object.entries(dependencies)) {
      // A dependency by `ref` is resolved by GitBook before the computation; Bindery passes
      // only resolved ones (`{kind, …}`) through.
      if (!isObject(dependency) || 'ref' in dependency) {
        throw invalidInput(
          `source.dependencies.${name}: Bindery does not resolve dependencies by ref; give ` +
            'their resolved value.',
        );
      }
    }
    const [, integrationName, sourceId] = match;
    const integration = await this.integrations.findByName(integrationName);
    const installation = integration
      ? await this.installations.findInstallationInOrganization(
          integration.id,
          space.entity.organizationId,
        )
      : null;
    const row = installation
      ? await this.installations.findContent('space', installation.id, space.id)
      : null;
    if (!integration || !installation || !row) {
      throw notFound(`Integration ${integrationName} installed on the space`);
    }
    if (!declares(integration, sourceId)) {
      throw notFound(`Content source ${sourceId} of ${integrationName}`);
    }

    const result = await this.dispatcher.dispatch(
      integration,
      {
        type,
        installationId: installation.id,
        spaceId: space.id,
        sourceId,
        props: source.props ?? {},
        dependencies,
      },
      {
        installationId: installation.id,
        organizationId: space.entity.organizationId,
        environment: {
          installation: this.presenter.installation({ integration, installation, spaces: 0 }),
          spaceInstallation: this.presenter.spaceInstallation({
            kind: 'space',
            integration,
            installation,
            row,
          }),
        },
      },
    );
    const response = result.response;
    if (!response) throw failed(`did not answer: ${result.error}`, integration);
    let answer: unknown;
    try {
      answer = JSON.parse(response.body.toString('utf8'));
    } catch {
      answer = undefined;
    }
    if (response.status < 200 || response.status >= 300 || !isObject(answer)) {
      throw failed(`answered ${response.status} without JSON content`, integration);
    }
    return answer;
  }
}

function declares(integration: Integration, sourceId: string): boolean {
  return (integration.contentSources ?? []).some((source) => source.id === sourceId);
}

function failed(what: string, integration?: Integration): DomainError {
  return new DomainError(
    'unavailable',
    'IntegrationFailed',
    `The content source ${integration ? `of ${integration.name} ` : ''}${what}.`,
  );
}
