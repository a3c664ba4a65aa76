import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Res,
  type Type,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { BodyOf, QueryOf } from '../../platform/validation/typed-params';
import { SITE_READ, SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { SiteStructurePresenter } from './site-structure.presenter';
import type { NodeTypes, NodeView, StructureNodes } from './structure-nodes';

type Described = { operationId: string; summary: string; description: string };

/** What tells the routes of one kind of structure node (sections, site spaces, groups) apart. */
export interface StructureNodeRoutes<T extends NodeTypes, R> {
  /** `orgs/:organizationId/sites/:siteId/<segment>`. */
  segment: string;
  /** The access policy of one node, and the route parameter that names it. */
  resource: 'siteSection' | 'siteSpace' | 'siteSectionGroup';
  param: string;
  tag: string;
  service: Type<StructureNodes<T>>;
  response: Type<R>;
  /** The list's query, and the bodies of add, update and move. */
  classes: { list: Type<PageQueryDto>; add: Type; update: Type; move: Type };
  /**
   * The bodies that name a space of the organization for the site to show: such a write reaches
   * beyond the site (`reaches: 'organization'`, refused to tokens limited to some sites).
   */
  namesSpace?: ('add' | 'update')[];
  /** GitBook's operationId, summary and a description of each route. */
  operations: Record<'list' | 'add' | 'update' | 'remove' | 'move', Described>;
  /** The 204 of a delete, the 409 of an update (when a path can clash), the 400 of a move. */
  answers: { removed: string; pathTaken?: string; badMove: string };
  present(presenter: SiteStructurePresenter, view: NodeView<T['node']>): R;
}

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/**
 * The routes every kind of structure node has, listing, adding, updating, deleting and moving,
 * as a base class per kind (one generic service, StructureNodes, stands behind them). A kind
 * adds its own routes in its subclass (section groups: their sections).
 */
export function StructureNodeController<T extends NodeTypes, R>(routes: StructureNodeRoutes<T, R>) {
  const base = `orgs/:organizationId/sites/:siteId/${routes.segment}`;
  const one = `${base}/:${routes.param}`;
  const { operations: op, answers } = routes;
  const reaching = (write: 'add' | 'update') =>
    routes.namesSpace?.includes(write) ? { reaches: 'organization' as const } : {};

  @Controller()
  class StructureNodeControllerBase {
    constructor(
      @Inject(routes.service) readonly nodes: StructureNodes<T>,
      readonly presenter: SiteStructurePresenter,
      readonly urls: UrlBuilder,
    ) {}

    @Get(base)
    @Access('site', SITE_READ)
    @ApiOperation(op.list)
    @ApiOkResponse({ type: PageOf(routes.response) })
    @badRequest
    async list(
      @CurrentUser() actor: UserActor,
      @Granted() site: SiteAccess,
      @Param('siteId') siteId: string,
      @QueryOf(routes.classes.list) query: T['list'],
    ): Promise<Page<R>> {
      const page = await this.nodes.list(site.organizationId, siteId, actor.userId, query);
      return mapPage(page, (item) => routes.present(this.presenter, item));
    }

    @Post(base)
    @HttpCode(201)
    @Access('site', SITE_WRITE, reaching('add'))
    @ApiOperation(op.add)
    @ApiCreatedResponse({ type: routes.response })
    @badRequest
    async add(
      @CurrentUser() actor: UserActor,
      @Granted() site: SiteAccess,
      @Param('siteId') siteId: string,
      @BodyOf(routes.classes.add) body: T['add'],
      @Res({ passthrough: true }) response: Response,
    ): Promise<R> {
      const view = await this.nodes.add(site.organizationId, siteId, actor.userId, body);
      response.location(
        this.urls.api('orgs', site.organizationId, 'sites', siteId, routes.segment, view.node.id),
      );
      return routes.present(this.presenter, view);
    }

    @Patch(one)
    @Access(routes.resource, SITE_WRITE, { param: routes.param, ...reaching('update') })
    @ApiOperation(op.update)
    @ApiOkResponse({ type: routes.response })
    @badRequest
    @(answers.pathTaken
      ? ApiConflictResponse({ type: ErrorBody, description: answers.pathTaken })
      : () => undefined)
    async update(
      @CurrentUser() actor: UserActor,
      @Granted() site: SiteAccess,
      @Param('siteId') siteId: string,
      @Param(routes.param) id: string,
      @BodyOf(routes.classes.update) body: T['update'],
    ): Promise<R> {
      const view = await this.nodes.update(site.organizationId, siteId, actor.userId, id, body);
      return routes.present(this.presenter, view);
    }

    @Delete(one)
    @HttpCode(204)
    @Access(routes.resource, SITE_WRITE, { param: routes.param, ifAbsent: 'proceed' })
    @ApiOperation(op.remove)
    @ApiNoContentResponse({ description: answers.removed })
    async remove(
      @Granted() site: SiteAccess | null,
      @Param('siteId') siteId: string,
      @Param(routes.param) id: string,
    ): Promise<void> {
      if (!site) return;
      await this.nodes.remove(site.organizationId, siteId, id);
    }

    @Post(`${one}/move`)
    @HttpCode(200)
    @Access(routes.resource, SITE_WRITE, routes.param)
    @ApiOperation({ ...op.move, deprecated: true })
    @ApiOkResponse({ type: routes.response })
    @ApiBadRequestResponse({ type: ErrorBody, description: answers.badMove })
    async move(
      @CurrentUser() actor: UserActor,
      @Granted() site: SiteAccess,
      @Param('siteId') siteId: string,
      @Param(routes.param) id: string,
      @BodyOf(routes.classes.move) body: T['move'],
    ): Promise<R> {
      const view = await this.nodes.move(site.organizationId, siteId, actor.userId, id, body);
      return routes.present(this.presenter, view);
    }
  }
  return StructureNodeControllerBase;
}
