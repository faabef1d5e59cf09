import { useRouteLoaderData } from 'react-router';

/** Whether the signed-in user is an admin (from the root loader). Only decides what is shown; the server checks every action. */
export function useIsAdmin(): boolean {
  const root = useRouteLoaderData('root') as { user?: { isAdmin?: boolean } | null } | undefined;
  return root?.user?.isAdmin === true;
}
