// The Herald node's parameters: resource → operation → that operation's fields.
import type { INodeProperties } from 'n8n-workflow';

/** Herald's networks (server/shared/platforms.ts; a test holds the two equal). */
export const PLATFORMS = ['instagram', 'facebook', 'linkedin', 'twitter', 'threads', 'tiktok', 'youtube', 'pinterest', 'google_business', 'bluesky', 'mastodon', 'reddit', 'telegram', 'discord', 'slack', 'devto', 'ghost', 'instagram_login', 'lemmy', 'listmonk', 'hashnode', 'medium', 'wordpress', 'tumblr', 'nostr', 'wordpress_com', 'vk', 'twitch', 'kick', 'dribbble', 'farcaster'];
const platformOptions = PLATFORMS.map((p) => ({ name: p, value: p }));

const show = (resource: string, operation: string[]) => ({ displayOptions: { show: { resource: [resource], operation } } });

const paging = (resource: string, max: number): INodeProperties[] => [
  {
    displayName: 'Return All',
    name: 'returnAll',
    type: 'boolean',
    default: false,
    description: 'Whether to return all results or only up to a given limit (pages are fetched as needed)',
    ...show(resource, ['list']),
  },
  {
    displayName: 'Limit',
    name: 'limit',
    type: 'number',
    typeOptions: { minValue: 1, maxValue: max },
    default: 50,
    description: 'Max number of results to return',
    displayOptions: { show: { resource: [resource], operation: ['list'], returnAll: [false] } },
  },
];

const idempotency = (resource: string, operation: string[]): INodeProperties => ({
  displayName: 'Options',
  name: 'options',
  type: 'collection',
  placeholder: 'Add Option',
  default: {},
  ...show(resource, operation),
  options: [
    {
      displayName: 'Idempotency Key',
      name: 'idempotencyKey',
      type: 'string',
      default: '',
      description:
        'Sent as Idempotency-Key: Herald answers a repeat of the same request with the first response for 24 hours. Empty: a fresh key for every request. Use an expression (e.g. an id from the trigger) to make re-runs safe.',
    },
  ],
});

const postIdField = (operations: string[], resource = 'post'): INodeProperties => ({
  displayName: 'Post ID',
  name: 'postId',
  type: 'string',
  required: true,
  default: '',
  ...show(resource, operations),
});

export const properties: INodeProperties[] = [
  {
    displayName: 'Resource',
    name: 'resource',
    type: 'options',
    noDataExpression: true,
    options: [
      { name: 'Analytics', value: 'analytics' },
      { name: 'Connection', value: 'connection' },
      { name: 'Inbox', value: 'inbox' },
      { name: 'Media', value: 'media' },
      { name: 'Post', value: 'post' },
    ],
    default: 'post',
  },

  // Post
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['post'] } },
    options: [
      { name: 'Cancel', value: 'cancel', action: 'Cancel a post', description: 'Cancel a draft or scheduled post (DELETE /posts/{id})' },
      { name: 'Create', value: 'create', action: 'Create a post', description: 'Create a draft, scheduled or queued post (POST /posts)' },
      { name: 'Get', value: 'get', action: 'Get a post', description: 'Get a post with its targets (GET /posts/{id})' },
      { name: 'Get Many', value: 'list', action: 'Get many posts', description: 'List posts, page by page (GET /posts)' },
      { name: 'Publish', value: 'publish', action: 'Publish a post now', description: 'Publish a post now (POST /posts/{id}/publish)' },
      { name: 'Retry', value: 'retry', action: 'Retry a failed post', description: 'Retry the failed targets of a post (POST /posts/{id}/retry)' },
    ],
    default: 'create',
  },
  {
    displayName: 'Text',
    name: 'content',
    type: 'string',
    typeOptions: { rows: 4 },
    required: true,
    default: '',
    description: 'The text for every account',
    ...show('post', ['create']),
  },
  {
    displayName: 'Account Names or IDs',
    name: 'connectionIds',
    type: 'multiOptions',
    typeOptions: { loadOptionsMethod: 'getConnections' },
    required: true,
    default: [],
    description:
      'The connected accounts to post to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a> (an array or a comma-separated list).',
    ...show('post', ['create']),
  },
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    ...show('post', ['create']),
    options: [
      { displayName: 'Schedule At', name: 'scheduledAt', type: 'dateTime', default: '', description: 'When to publish; empty makes a draft' },
      { displayName: 'Add to Queue', name: 'queue', type: 'boolean', default: false, description: 'Whether to publish at the next free slot of the posting queue (no Schedule At)' },
      {
        displayName: 'First Comment',
        name: 'firstComment',
        type: 'string',
        default: '',
        description: 'Posted as a comment under the post right after it lands, on the networks that allow it',
      },
      { displayName: 'Media IDs', name: 'mediaIds', type: 'string', default: '', description: 'Ready media asset IDs (from Media → Upload), comma-separated' },
      { displayName: 'Media URLs', name: 'mediaUrls', type: 'string', default: '', description: 'Public https URLs of images or videos, comma-separated' },
      { displayName: 'Require Approval', name: 'requireApproval', type: 'boolean', default: false, description: 'Whether a member must approve the post before it publishes' },
    ],
  },
  {
    displayName: 'Thread',
    name: 'thread',
    type: 'fixedCollection',
    typeOptions: { multipleValues: true, sortable: true },
    placeholder: 'Add Thread Part',
    default: {},
    description: 'Parts posted after the text, each replying to the one before (X, Bluesky, Threads, Mastodon)',
    ...show('post', ['create']),
    options: [
      {
        displayName: 'Parts',
        name: 'parts',
        values: [
          { displayName: 'Text', name: 'content', type: 'string', typeOptions: { rows: 2 }, default: '' },
          { displayName: 'Media IDs', name: 'mediaIds', type: 'string', default: '', description: 'Comma-separated' },
        ],
      },
    ],
  },
  postIdField(['get', 'publish', 'cancel', 'retry']),
  ...paging('post', 1000),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    ...show('post', ['list']),
    options: [
      {
        displayName: 'Status',
        name: 'status',
        type: 'options',
        default: 'scheduled',
        options: ['draft', 'scheduled', 'publishing', 'published', 'partial_published', 'failed', 'cancelled'].map((s) => ({ name: s, value: s })),
      },
      { displayName: 'Platform', name: 'platform', type: 'options', default: 'linkedin', options: platformOptions },
      { displayName: 'Scheduled From', name: 'from', type: 'dateTime', default: '' },
      { displayName: 'Scheduled To', name: 'to', type: 'dateTime', default: '' },
      { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text the post contains' },
    ],
  },
  idempotency('post', ['create', 'publish', 'cancel', 'retry']),

  // Media
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['media'] } },
    options: [
      { name: 'Get Many', value: 'list', action: 'Get many media assets', description: 'List the media library (GET /media)' },
      { name: 'Upload', value: 'upload', action: 'Upload a media file', description: 'Upload an image or video from a binary property' },
    ],
    default: 'upload',
  },
  {
    displayName: 'Input Binary Field',
    name: 'binaryPropertyName',
    type: 'string',
    required: true,
    default: 'data',
    description: 'The binary property holding the image or video',
    ...show('media', ['upload']),
  },
  { displayName: 'File Name', name: 'fileName', type: 'string', default: '', description: 'Name in the media library; the binary file name by default', ...show('media', ['upload']) },
  ...paging('media', 1000),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    ...show('media', ['list']),
    options: [
      {
        displayName: 'Kind',
        name: 'kind',
        type: 'options',
        default: 'image',
        options: [
          { name: 'Image', value: 'image' },
          { name: 'Video', value: 'video' },
        ],
      },
      { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Name contains this' },
    ],
  },
  idempotency('media', ['upload']),

  // Connection
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['connection'] } },
    options: [{ name: 'Get Many', value: 'list', action: 'Get many connections', description: 'List the connected accounts (GET /connections)' }],
    default: 'list',
  },

  // Analytics
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['analytics'] } },
    options: [
      { name: 'Get Ad Account Summary', value: 'adAccountSummary', action: 'Get an ad account summary', description: 'An ad account’s numbers summed over days (GET /metrics/summary)' },
      { name: 'Get Post Metrics', value: 'postMetrics', action: 'Get a post s metrics', description: 'Metrics of each of a post’s targets (GET /posts/{id}/metrics)' },
      { name: 'Get Top Posts', value: 'topPosts', action: 'Get the workspace s top posts', description: 'The workspace’s best posts over days (GET /analytics/top-posts)' },
    ],
    default: 'postMetrics',
  },
  postIdField(['postMetrics'], 'analytics'),
  {
    displayName: 'Ad Account ID',
    name: 'accountId',
    type: 'string',
    required: true,
    default: '',
    description: 'An ID from GET /ad-accounts',
    ...show('analytics', ['adAccountSummary']),
  },
  {
    displayName: 'From',
    name: 'from',
    type: 'string',
    required: true,
    default: '',
    placeholder: '2026-01-01',
    description: 'First day, YYYY-MM-DD in the workspace’s time zone (inclusive)',
    ...show('analytics', ['topPosts', 'adAccountSummary']),
  },
  {
    displayName: 'To',
    name: 'to',
    type: 'string',
    required: true,
    default: '',
    placeholder: '2026-01-31',
    description: 'Last day, YYYY-MM-DD (inclusive)',
    ...show('analytics', ['topPosts', 'adAccountSummary']),
  },
  {
    displayName: 'Options',
    name: 'topOptions',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    ...show('analytics', ['topPosts']),
    options: [
      { displayName: 'Platform', name: 'platform', type: 'options', default: 'linkedin', options: platformOptions },
      { displayName: 'Limit', name: 'limit', type: 'number', typeOptions: { minValue: 1, maxValue: 100 }, default: 10, description: 'Max number of results to return' },
      { displayName: 'Sort', name: 'sort', type: 'string', default: 'engagement', description: 'A metric name, or engagement (the default)' },
    ],
  },

  // Inbox
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['inbox'] } },
    options: [
      { name: 'Get Many', value: 'list', action: 'Get many inbox items', description: 'Comments and messages under your posts (GET /inbox)' },
      { name: 'Reply', value: 'reply', action: 'Reply to an inbox item', description: 'Reply on the network (POST /inbox/{id}/reply)' },
    ],
    default: 'list',
  },
  ...paging('inbox', 1000),
  {
    displayName: 'Filters',
    name: 'filters',
    type: 'collection',
    placeholder: 'Add Filter',
    default: {},
    ...show('inbox', ['list']),
    options: [
      {
        displayName: 'Status',
        name: 'status',
        type: 'options',
        default: 'open',
        options: [
          { name: 'Open', value: 'open' },
          { name: 'Done', value: 'done' },
          { name: 'All', value: 'all' },
        ],
      },
      { displayName: 'Platform', name: 'platform', type: 'options', default: 'linkedin', options: platformOptions },
      { displayName: 'Account ID', name: 'connectionId', type: 'string', default: '' },
      { displayName: 'Post ID', name: 'postId', type: 'string', default: '' },
      { displayName: 'Unread Only', name: 'unread', type: 'boolean', default: false },
    ],
  },
  { displayName: 'Item ID', name: 'itemId', type: 'string', required: true, default: '', ...show('inbox', ['reply']) },
  { displayName: 'Reply Text', name: 'text', type: 'string', typeOptions: { rows: 3 }, required: true, default: '', ...show('inbox', ['reply']) },
  idempotency('inbox', ['reply']),
];
