import { data } from 'react-router';

/** Any URL no other route matches: the root error boundary renders the localized 404 page. */
export function loader() {
  throw data(null, { status: 404 });
}

export function action() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
