// The key a member scans: as text, as the otpauth:// link, and as a QR code of that link (an
// SVG data URL drawn on the server, so the page loads no script for it).
import QRCode from 'qrcode';

export async function scanState(key: { secret: string; uri: string }): Promise<{ stage: 'scan'; secret: string; uri: string; qr: string }> {
  const svg = await QRCode.toString(key.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { stage: 'scan', ...key, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}
