// Connecting a Telegram channel: the Bot API's getMe, getChat and getChatMember
// (https://core.telegram.org/bots/api#getme, #getchat, #getchatmember) against a local fake.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakePlatformApi } from '@/server/platforms/testing/adapter-tests';
import { fixture } from '@/server/platforms/testing/fake-platform-api';
import { OAuthFlowError } from '../oauth-provider';
import { telegramBotUsername, telegramChatId, telegramCredentials } from './telegram';

const f = (name: string) => fixture(`${import.meta.dirname}/../../../platforms/telegram`, name);
const BOT = '7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const platform = useFakePlatformApi();
const path = (method: string) => `/bot${BOT}/${method}`;

beforeEach(() => {
  vi.stubEnv('TELEGRAM_BOT_TOKEN', BOT);
  vi.stubEnv('TELEGRAM_API_BASE_URL', platform.baseUrl);
});
afterEach(() => vi.unstubAllEnvs());

describe('Telegram channel connect', () => {
  it('is available only with a bot token, and names the bot in its instructions', async () => {
    platform.on('POST', path('getMe'), { json: f('get-me') });
    expect(telegramCredentials.available()).toBe(true);
    expect(await telegramBotUsername(platform.fetch)).toBe('HeraldPostBot');
    vi.stubEnv('TELEGRAM_BOT_TOKEN', '');
    expect(telegramCredentials.available()).toBe(false);
    expect(await telegramBotUsername(platform.fetch)).toBeNull();
  });

  it('names the bot in its instructions', async () => {
    platform.on('POST', path('getMe'), { json: f('get-me') });
    expect(await telegramCredentials.instructions({ sentBy: 'Northwind' }, platform.fetch)).toBe(
      'Add @HeraldPostBot to your channel as an administrator who can post messages, then enter the channel below.',
    );
  });

  it('when Telegram cannot be reached, says so and whom to ask for the bot’s @name', async () => {
    // Another token: the name learnt for the first one is not reused.
    const other = '7099999999:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsbb';
    vi.stubEnv('TELEGRAM_BOT_TOKEN', other);
    platform.on('POST', `/bot${other}/getMe`, { status: 502, json: { ok: false, error_code: 502, description: 'Bad Gateway' } });
    const forClient = await telegramCredentials.instructions({ sentBy: 'Northwind' }, platform.fetch);
    expect(forClient).toBe(
      'Herald could not reach Telegram just now to look up the @name of the bot that posts to your channel. Reload this page in a moment, or ask Northwind for it. Then add that bot to your channel as an administrator who can post messages, and enter the channel below.',
    );
    expect(await telegramCredentials.instructions({ sentBy: null }, platform.fetch)).toContain('or ask whoever set up Herald for it.');
    expect(forClient).not.toMatch(/this service/);
  });

  it('reads the channel and checks the bot may post there', async () => {
    platform.on('POST', path('getMe'), { json: f('get-me') });
    platform.on('POST', path('getChat'), { json: f('get-chat') });
    platform.on('POST', path('getChatMember'), { json: f('get-chat-member-admin') });
    const [account] = await telegramCredentials.connect(platform.fetch, { channel: 'https://t.me/heraldcoffee' });
    expect(account).toEqual({
      externalId: '-1001234567890',
      accountName: '@heraldcoffee',
      displayName: 'Herald Coffee',
      avatarUrl: null,
      accessToken: 'telegram-bot:7012345678',
      refreshToken: null,
      expiresAt: null,
      scopes: null,
      platformData: { chatId: '-1001234567890', username: 'heraldcoffee', botId: '7012345678' },
    });
    expect(platform.calls('POST', path('getChat'))[0]!.json()).toEqual({ chat_id: '@heraldcoffee' });
    expect(platform.calls('POST', path('getChatMember'))[0]!.json()).toEqual({ chat_id: '-1001234567890', user_id: 7012345678 });
  });

  it('refuses a channel where the bot cannot post, with a readable message', async () => {
    platform.on('POST', path('getMe'), { json: f('get-me') });
    platform.on('POST', path('getChat'), { json: f('get-chat') });
    platform.on('POST', path('getChatMember'), { json: f('get-chat-member-no-post') });
    const error = await telegramCredentials.connect(platform.fetch, { channel: '@heraldcoffee' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as Error).message).toBe('@HeraldPostBot is not an administrator of this channel with the right to post messages. Add it, then try again.');
  });

  it('passes Telegram’s refusal on readably', async () => {
    platform.on('POST', path('getMe'), { json: f('get-me') });
    platform.on('POST', path('getChat'), { status: 400, json: f('error-chat-not-found') });
    await expect(telegramCredentials.connect(platform.fetch, { channel: '@nochannel' })).rejects.toThrow(
      'Telegram did not let the bot reach @nochannel (Bad Request: chat not found). Check the channel and that the bot is an administrator.',
    );
  });

  it('reads channel names the way clients type them', () => {
    expect(telegramChatId('@heraldcoffee')).toBe('@heraldcoffee');
    expect(telegramChatId('heraldcoffee')).toBe('@heraldcoffee');
    expect(telegramChatId('t.me/heraldcoffee')).toBe('@heraldcoffee');
    expect(telegramChatId('-1001234567890')).toBe('-1001234567890');
    expect(telegramChatId('not a channel')).toBeNull();
  });
});
