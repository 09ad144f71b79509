import type { Metadata } from 'next';
import { NotFoundNotice } from '@/components/not-found-notice';

export const metadata: Metadata = { title: 'Not found' };

/** A record looked up by id that is not there (notFound() in a dashboard page): inside the shell. */
export default function DashboardNotFound() {
  return <NotFoundNotice />;
}
