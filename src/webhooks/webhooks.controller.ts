import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { Clock } from '../platform/clock/clock';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import type { ResolvedAccess } from '../platform/policy/access';
import { CreateWebhookDto, ListDeliveriesQueryDto, UpdateWebhookDto } from './dto/webhook.dto';
import {
  WebhookDeliveryDetailResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
  WebhookWithSecretResponse,
} from './dto/webhook.response';
import { WebhooksPresenter } from './webhooks.presenter';
import { WebhooksService } from './webhooks.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

const SIGNING =
  'Each delivery is a POST of the event as JSON (with `installationId`: the webhook id), signed ' +
  'as the Standard Webhooks specification says: `webhook-id` (the event id), ' +
  '`webhook-timestamp`, `webhook-signature`.';

@Controller('orgs/:organizationId/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly presenter: WebhooksPresenter,
    private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Create a webhook',
    description:
      `Bindery's own. ${SIGNING} The answer holds its secret, shown this once (and on ` +
      'rotation). An active webhook gets a `ping` event at once. 400 for an unknown event ' +
      'type, a space or site not in the organization, or a URL that is not http(s) or names a ' +
      'private address.',
  })
  @ApiCreatedResponse({ type: WebhookWithSecretResponse })
  @badRequest
  async create(
    @Granted() organization: ResolvedAccess,
    @CurrentUser() user: UserActor,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookWithSecretResponse> {
    const { webhook, secret } = await this.webhooks.create(user.userId, organization.id, body);
    return this.presenter.withSecret(webhook, secret, this.clock.now());
  }

  @Get()
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: "List the organization's webhooks",
    description: "Bindery's own. Oldest first; never their secrets.",
  })
  @ApiOkResponse({ type: PageOf(WebhookResponse) })
  @badRequest
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<WebhookResponse>> {
    const now = this.clock.now();
    return mapPage(await this.webhooks.list(organization.id, query), (webhook) =>
      this.presenter.webhook(webhook, now),
    );
  }

  @Get(':webhookId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'getWebhook',
    summary: 'Get a webhook',
    description: "Bindery's own.",
  })
  @ApiOkResponse({ type: WebhookResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('webhookId') id: string,
  ): Promise<WebhookResponse> {
    return this.presenter.webhook(await this.webhooks.get(organization.id, id), this.clock.now());
  }

  @Patch(':webhookId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Update a webhook',
    description:
      "Bindery's own. Changes the fields given. `active: true` on a disabled webhook enables " +
      'it again: its failure state is cleared, it gets a `ping`, and the deliveries that ' +
      'waited are sent.',
  })
  @ApiOkResponse({ type: WebhookResponse })
  @badRequest
  async update(
    @Granted() organization: ResolvedAccess,
    @CurrentUser() user: UserActor,
    @Param('webhookId') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookResponse> {
    const webhook = await this.webhooks.update(user.userId, organization.id, id, body);
    return this.presenter.webhook(webhook, this.clock.now());
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: "Bindery's own. Its deliveries go with it; none is sent after this answer.",
  })
  @ApiNoContentResponse({ description: 'The webhook is gone.' })
  async remove(
    @Granted() organization: ResolvedAccess,
    @Param('webhookId') id: string,
  ): Promise<void> {
    await this.webhooks.remove(organization.id, id);
  }

  @Post(':webhookId/rotate-secret')
  @HttpCode(200)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook's secret",
    description:
      "Bindery's own. Answers the new secret, shown this once. For 24 hours " +
      '(`previousSecretExpiresAt`) deliveries carry two signatures, with the new and the ' +
      'previous secret (`v1,<a> v1,<b>`), so receivers can switch at their pace.',
  })
  @ApiOkResponse({ type: WebhookWithSecretResponse })
  async rotate(
    @Granted() organization: ResolvedAccess,
    @Param('webhookId') id: string,
  ): Promise<WebhookWithSecretResponse> {
    const { webhook, secret } = await this.webhooks.rotateSecret(organization.id, id);
    return this.presenter.withSecret(webhook, secret, this.clock.now());
  }

  @Get(':webhookId/deliveries')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook's deliveries",
    description: "Bindery's own. Newest first; `status` keeps those in one state.",
  })
  @ApiOkResponse({ type: PageOf(WebhookDeliveryResponse) })
  @badRequest
  async listDeliveries(
    @Granted() organization: ResolvedAccess,
    @Param('webhookId') id: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<Page<WebhookDeliveryResponse>> {
    return mapPage(await this.webhooks.listDeliveries(organization.id, id, query), (delivery) =>
      this.presenter.delivery(delivery),
    );
  }

  @Get(':webhookId/deliveries/:deliveryId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'Get a webhook delivery',
    description: "Bindery's own. With the body sent and every attempt.",
  })
  @ApiOkResponse({ type: WebhookDeliveryDetailResponse })
  async getDelivery(
    @Granted() organization: ResolvedAccess,
    @Param('webhookId') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryDetailResponse> {
    const detail = await this.webhooks.getDelivery(organization.id, id, deliveryId);
    return this.presenter.deliveryDetail(detail.delivery, detail.payload, detail.attempts);
  }

  @Post(':webhookId/deliveries/:deliveryId/redeliver')
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'redeliverWebhookDelivery',
    summary: 'Deliver an event again',
    description:
      "Bindery's own. A new delivery of the same event (the same `webhook-id`, so receivers " +
      'that drop repeats drop it), sent after the deliveries of its resource already waiting, ' +
      'retried as any other.',
  })
  @ApiCreatedResponse({ type: WebhookDeliveryResponse })
  async redeliver(
    @Granted() organization: ResolvedAccess,
    @Param('webhookId') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.presenter.delivery(await this.webhooks.redeliver(organization.id, id, deliveryId));
  }
}
