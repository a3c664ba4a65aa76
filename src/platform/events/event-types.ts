/**
 * Every type of event Bindery records (`EventOutbox.record`) and delivers to webhooks, named
 * as GitBook names its integration events where it has one. `ping` is the webhooks module's
 * own: sent to a webhook when it is created or enabled again, and to no other.
 */
export const EVENT_TYPES = [
  'space_created',
  'space_updated',
  'space_deleted',
  'space_restored',
  'space_visibility_updated',
  'space_content_updated',
  'change_request_opened',
  'change_request_updated',
  'change_request_merged',
  'change_request_closed',
  'change_request_review_submitted',
  'comment_created',
  'comment_updated',
  'comment_resolved',
  'comment_reply_created',
  'comment_reply_updated',
  'site_published',
  'site_unpublished',
  'openapi_spec_version_created',
  'translation_run_finished',
  'import_run_finished',
  'space_gitsync_started',
  'space_gitsync_completed',
  'member_added',
  'member_removed',
  'member_role_updated',
  'page_feedback',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
