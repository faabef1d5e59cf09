import { Check, Inbox, Reply, RotateCcw, Trash2 } from 'lucide-react';
import { Form, Link, data, useNavigation } from 'react-router';
import { Pagination } from '~/components/admin/pagination';
import { appContext } from '~/context';
import { field, readForm } from '~/http/body.server';
import { requireAdmin, shopperContext } from '~/http/shopper.server';
import { formatDateTime } from '~/lib/format';
import { INBOX_PAGE_SIZE, deleteMessage, listMessages, markMessage } from '~/modules/contact/index.server';
import { getT } from '~/modules/i18n/index.server';
import { useI18n } from '~/modules/i18n/react';
import type { Route } from './+types/messages';

export async function loader({ url, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const shopper = context.get(shopperContext);
  requireAdmin(shopper);
  const unreadOnly = url.searchParams.get('show') !== 'all';
  const pageParam = Number(url.searchParams.get('page'));
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const { messages, total } = await listMessages(app.db, { unreadOnly, offset: (page - 1) * INBOX_PAGE_SIZE });
  return { title: getT(shopper.locale)('admin.meta.messagesTitle'), unreadOnly, inbox: messages, total, page, pages: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.title} · Kopi` }, { name: 'robots', content: 'noindex' }];

type Result = { ok: true; done: 'handled' | 'unread' | 'deleted' } | { ok: false; error: 'not_found' | 'failed' };

export async function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  const user = requireAdmin(context.get(shopperContext));
  const form = await readForm(request);
  const intent = field(form, 'intent');
  const id = field(form, 'id');
  if (intent !== 'handle' && intent !== 'unread' && intent !== 'delete') return data<Result>({ ok: false, error: 'failed' }, { status: 400 });
  try {
    const outcome = intent === 'delete' ? await deleteMessage(app.db, user, id) : await markMessage(app.db, user, id, intent === 'handle');
    if (!outcome.ok) return data<Result>({ ok: false, error: 'not_found' }, { status: 404 });
    return data<Result>({ ok: true, done: intent === 'handle' ? 'handled' : intent === 'unread' ? 'unread' : 'deleted' });
  } catch (error) {
    app.log.error({ err: error }, 'changing a message failed');
    return data<Result>({ ok: false, error: 'failed' }, { status: 503 });
  }
}

/** `mailto:` with the sender and "Re: subject" filled in (the owner answers from their own mail program). */
const replyHref = (email: string, subject: string) => `mailto:${encodeURIComponent(email).replace('%40', '@')}?subject=${encodeURIComponent(`Re: ${subject}`)}`;

export default function AdminMessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useI18n();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  // `messages` in loader data is the page's translations (root.tsx), so the list is `inbox`.
  const { unreadOnly, inbox, total, page, pages } = loaderData;
  const result = actionData as Result | undefined;
  const tab = (active: boolean) =>
    `rounded-full px-4 py-1.5 text-sm font-semibold ${active ? 'bg-roast text-cream' : 'text-roast-600 ring-1 ring-sand hover:bg-roast/5'}`;
  return (
    <div>
      <h1 className="text-3xl font-semibold md:text-4xl">{t('admin.messages.heading')}</h1>
      <p className="mt-2 text-muted">{t('admin.messages.intro')}</p>

      <nav aria-label={t('admin.messages.filter')} className="mt-6 flex flex-wrap gap-2">
        <Link to="/admin/messages" className={tab(unreadOnly)} aria-current={unreadOnly ? 'page' : undefined}>{t('admin.messages.unread')}</Link>
        <Link to="/admin/messages?show=all" className={tab(!unreadOnly)} aria-current={!unreadOnly ? 'page' : undefined}>{t('admin.messages.all')}</Link>
      </nav>

      <div aria-live="polite" className="mt-4">
        {result?.ok && <p role="status" className="rounded-2xl bg-leaf-light px-5 py-3 text-sm font-medium text-leaf-dark ring-1 ring-leaf/20">{t(`admin.messages.done.${result.done}`)}</p>}
        {result && !result.ok && <p role="alert" className="rounded-2xl bg-cherry-light px-5 py-3 text-sm font-medium text-cherry ring-1 ring-cherry/20">{t(`admin.messages.errors.${result.error}`)}</p>}
      </div>

      <p className="mt-4 text-sm text-muted" data-testid="messages-count">{t(unreadOnly ? 'admin.messages.countUnread' : 'admin.messages.count', { count: total })}</p>

      {inbox.length === 0 ? (
        <div className="mt-4 grid justify-items-center gap-3 rounded-3xl bg-paper p-10 text-center text-muted ring-1 ring-sand">
          <Inbox aria-hidden="true" className="h-8 w-8 text-leaf" />
          <p>{t(unreadOnly ? 'admin.messages.emptyUnread' : 'admin.messages.empty')}</p>
        </div>
      ) : (
        <ul className="mt-4 grid gap-4">
          {inbox.map((m) => (
            <li key={m.id} className={`rounded-3xl bg-paper p-6 ring-1 ${m.handledAt ? 'ring-sand' : 'ring-leaf/40'}`} data-testid="message">
              <article aria-labelledby={`message-${m.id}`}>
                <header className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <h2 id={`message-${m.id}`} className="font-sans text-lg font-semibold break-words">
                      {!m.handledAt && <span className="mr-2 inline-block h-2.5 w-2.5 rounded-full bg-leaf align-middle" aria-hidden="true" />}
                      {m.subject}
                    </h2>
                    <p className="text-sm text-muted break-all">
                      {m.name} · <a href={`mailto:${m.email}`} className="text-leaf underline underline-offset-4">{m.email}</a> · {t(`admin.orders.languages.${m.locale}`)}
                    </p>
                  </div>
                  <div className="flex items-center gap-3 text-sm sm:block sm:text-right">
                    <time dateTime={m.createdAt} className="block text-muted">{formatDateTime(m.createdAt, locale)}</time>
                    <span className={`inline-block rounded-full sm:mt-1 px-3 py-0.5 text-xs font-semibold ${m.handledAt ? 'bg-sand text-roast-600' : 'bg-leaf-light text-leaf-dark'}`}>
                      {m.handledAt ? t('admin.messages.handled') : t('admin.messages.new')}
                    </span>
                  </div>
                </header>
                <p className="mt-4 text-sm leading-relaxed whitespace-pre-wrap break-words text-roast-800">{m.message}</p>
                <div className="mt-5 flex flex-wrap items-center gap-2">
                  <a href={replyHref(m.email, m.subject)} className="btn-primary px-4 py-2 text-sm">
                    <Reply aria-hidden="true" className="h-4 w-4" />
                    {t('admin.messages.reply')}
                  </a>
                  <Form method="post">
                    <input type="hidden" name="id" value={m.id} />
                    <input type="hidden" name="intent" value={m.handledAt ? 'unread' : 'handle'} />
                    <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={busy}>
                      {m.handledAt ? <RotateCcw aria-hidden="true" className="h-4 w-4" /> : <Check aria-hidden="true" className="h-4 w-4" />}
                      {m.handledAt ? t('admin.messages.markUnread') : t('admin.messages.markHandled')}
                    </button>
                  </Form>
                  <details className="ml-auto">
                    <summary className="inline-flex cursor-pointer items-center gap-1 rounded-full px-3 py-2 text-sm font-semibold text-cherry hover:underline">
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                      {t('admin.messages.delete')}
                    </summary>
                    <Form method="post" className="mt-2 flex flex-wrap items-center justify-end gap-2">
                      <span className="text-sm text-roast-800">{t('admin.messages.deleteConfirm')}</span>
                      <input type="hidden" name="id" value={m.id} />
                      <input type="hidden" name="intent" value="delete" />
                      <button type="submit" className="btn bg-cherry px-4 py-2 text-sm text-white hover:bg-cherry/90" disabled={busy}>
                        {t('admin.messages.confirmDelete')}
                      </button>
                    </Form>
                  </details>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pages={pages} />
    </div>
  );
}
