import { WorkspaceSettings } from '../_components/settings/workspace-settings';

export default function SettingsPage() {
  return <WorkspaceSettings />;
}
