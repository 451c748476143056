// A server error as a person reads it: the API's messages name request fields ("scheduledAt
// is …", "YouTube posts need platformSettings.youtube.title"), which mean nothing on a form or
// in an import's preview. The codes with such messages get words here, a network's setting by
// the label the composer gives it; every other message is already written for people.
import { platformName } from '@/server/platforms/catalogue';
import { isPlatform } from '@/server/shared/platforms';
import { settingFields } from './setting-fields';

/** The composer's label of `platformSettings.<platform>.<key>`, with the network's name; null for any other field. */
function settingOf(field: string | undefined): { network: string; label: string } | null {
  const [root, platform, key] = field?.split('.') ?? [];
  if (root !== 'platformSettings' || !platform || !key || !isPlatform(platform)) return null;
  const label = settingFields(platform).find((f) => f.key === key)?.label;
  return label ? { network: platformName(platform), label } : null;
}

export function inWords(e: { code: string; message: string; field?: string }): string {
  const setting = settingOf(e.field);
  switch (e.code) {
    case 'SCHEDULED_TIME_IN_PAST':
      return 'That time has already passed. Pick a time from now on.';
    case 'VALIDATION_FAILED':
      // A setting the network requires (post-rules: requiredSettings, requiredSettingsWithVideo).
      if (setting && / posts need platformSettings\./.test(e.message)) {
        const posts = / video posts need /.test(e.message) ? 'video posts' : 'posts';
        return `${setting.network} ${posts} need “${setting.label}” (under Platform settings).`;
      }
      return e.message;
    case 'PLATFORM_SETTING_UNKNOWN': {
      // "<field> has the wrong type or value: <what the schema asks for>".
      const asks = /has the wrong type or value: (.*)$/.exec(e.message)?.[1];
      if (!setting || !asks) return e.message;
      return /^an? /.test(asks) ? `“${setting.label}” (${setting.network}) must be ${asks}.` : `“${setting.label}” (${setting.network}): ${asks}`;
    }
    default:
      return e.message;
  }
}
