import { BoxSkeleton, CardListSkeleton, PageSkeleton } from '@/components/skeleton';

/** While the servers and their contracts are read: the page's outline, so nothing jumps when it arrives. */
export default function McpLoading() {
  return (
    <PageSkeleton title="MCP servers" what="MCP servers">
      <CardListSkeleton cards={2} lines={4} />
      <BoxSkeleton className="mt-8 h-64" />
    </PageSkeleton>
  );
}
