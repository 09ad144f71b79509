import { BoxSkeleton, PageSkeleton } from '@/components/skeleton';

/** The settings form, then the webhooks. */
export default function SettingsLoading() {
  return (
    <PageSkeleton title="Settings" what="settings">
      <BoxSkeleton className="h-96" />
      <BoxSkeleton className="mt-8 h-48" />
    </PageSkeleton>
  );
}
