// What the hosted connect page shows: the agency's brand, one channel per platform, and the
// accounts the client workspace already has (GET /public/connect/{token}).
import { resolveClientLink } from '@/server/client-links/resolve-client-link';
import { db } from '@/server/db/client';
import { channelFields, channelModes, demoAccountsOffered, realChannelMode } from './channels';
import { telegramBotUsername } from './oauth/providers/telegram';
import { isApprovalProvider, isCredentialsProvider } from './oauth/oauth-provider';
import { oauthProviders } from './oauth/providers';
import type { ConnectPageData } from './connect.schemas';

export async function readConnectPage(token: string): Promise<ConnectPageData> {
  const link = await resolveClientLink(token, 'connect');
  const connections = await db.connection.findMany({
    where: { workspaceId: link.workspace.id },
    orderBy: [{ platform: 'asc' }, { createdAt: 'asc' }],
    select: { id: true, platform: true, accountName: true, displayName: true, avatarUrl: true, status: true },
  });
  const demo = demoAccountsOffered(link);
  const selfIssued = link.issuedById === link.workspace.id;
  return {
    workspace: link.workspace,
    brand: link.brand,
    expiresAt: link.expiresAt.toISOString(),
    channels: await Promise.all(
      channelModes(demo).map(async ({ platform, mode }) => {
        const provider = oauthProviders[platform];
        return {
          platform,
          configured: mode !== 'unavailable',
          connectWith: mode === 'unavailable' ? null : mode,
          fields: channelFields(platform, mode),
          instructions:
            mode === 'credentials' && isCredentialsProvider(provider)
              ? await provider.instructions({ sentBy: selfIssued ? null : link.brand.name })
              : mode === 'approval' && isApprovalProvider(provider)
                ? provider.instructions
                : null,
          demo,
        };
      }),
    ),
    connections,
    // The deployment's bot, which the client adds to their channel as an admin (null without one).
    telegramBotUsername: realChannelMode('telegram') === 'credentials' ? await telegramBotUsername() : null,
    // A member connecting their own workspace's accounts from the app opened a link the
    // workspace issued itself: the page then speaks to them, not to a client.
    selfIssued,
  };
}
