import { validateManifestHandler } from '@/lib/api/handlers/pipeline';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ POST: validateManifestHandler });
