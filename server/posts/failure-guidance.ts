// What a failed delivery means, in plain words, and the one thing to do about it. The
// network's own error stays on screen verbatim; this only explains the common cases. No
// database here, so browser code can import it.

export interface FailureGuidance {
  /** One sentence a member acts on. */
  explanation: string;
  /** The next step: reconnect the account, edit the post, or retry. */
  action: 'reconnect' | 'edit' | 'retry' | 'wait';
}

const RULES: { test: (code: string | null, message: string) => boolean; guidance: FailureGuidance }[] = [
  {
    test: (code, m) => code === 'CONNECTION_EXPIRED' || /access token|session has expired|token (has )?expired|revoked|invalid_grant|\b401\b/i.test(m),
    guidance: { explanation: 'The account’s access expired or was revoked on the network. Reconnect it, then retry.', action: 'reconnect' },
  },
  {
    test: (_c, m) => /duplicate/i.test(m),
    guidance: {
      explanation: 'The network refused it as a duplicate of a recent post. Change the text a little (or wait a day), then retry.',
      action: 'edit',
    },
  },
  {
    test: (_c, m) => /\b(media|image|video|photo|aspect ratio|resolution|file (size|type)|format)\b/i.test(m),
    guidance: {
      explanation: 'The network refused the media: its format, size, length or proportions. Replace it with one the network accepts, then retry.',
      action: 'edit',
    },
  },
  {
    test: (_c, m) => /rate limit|too many requests|\b429\b|throttl/i.test(m),
    guidance: { explanation: 'The network is limiting how often this account can post. Retry in a few minutes.', action: 'wait' },
  },
  {
    // DELIVERY_INTERRUPTED: failures recorded before Herald asked the network (older posts).
    test: (code) => code === 'DELIVERY_UNCONFIRMED' || code === 'DELIVERY_INTERRUPTED',
    guidance: {
      explanation:
        'Herald was cut off while sending this and could not confirm with the network whether it went out, so it was not sent again on its own (that could post twice). Check the account on the network, then retry if it is not there.',
      action: 'retry',
    },
  },
];

/** Guidance for a failure (its event code when known, and the network's text); null when nothing more can be said than the text. */
export function explainFailure(code: string | null, message: string | null): FailureGuidance | null {
  const text = message ?? '';
  return RULES.find((rule) => rule.test(code, text))?.guidance ?? null;
}
