"""The end of three campaigns, driven by app-server/dev/lifecycle.sh (issue:
the end of a campaign). Three projects are made through the operators' API,
backed by guests through the support API against the local payment server,
then ended (their last day set to yesterday, as time passing would): the
closing sweep decides them. Prints per project the result, the refunds and
the payout statement; fails on anything a supporter or the owner would notice.
"""

import os
import time

from crash import Scenario, fail, parse_args, wait_until

ADMIN = ('demo-admin@example.jp', 'demo-password-1')


class Lifecycle(Scenario):
    def start_server(self):
        # A bulk refund the kill interrupts is taken over after 3 s, not the production 10 minutes.
        os.environ.update(CAMPAIGN_CLOSE_SECONDS='1', PAYMENT_SWEEP_SECONDS='1',
                          RECONCILE_AFTER_SECONDS='5', PAYOUT_TRANSFER_FEE='440',
                          BULK_REFUND_LEASE_SECONDS='3')
        super().start_server()

    def api(self, method, path, data=None, token=None):
        headers = {'Authorization': f'Bearer {token}'} if token else None
        status, body = self.request(method, self.base + path, data, headers)
        if status != 200:
            fail(f'{method} {path}: HTTP {status} {body}')
        return body

    def admin(self):
        return self.api('POST', '/v1/user/login',
                        {'email': ADMIN[0], 'password': ADMIN[1]})['token']

    def project(self, token, slug, title, model, goal):
        end = self.sql("SELECT (now() AT TIME ZONE 'Asia/Tokyo')::date + 30")
        made = self.api('POST', '/v1/admin/projects', {
            'slug': slug, 'title': title, 'lead': 'make lifecycle',
            'story': '<p>make lifecycle</p>', 'goal': goal, 'periodEnd': end,
            'fundingModel': model, 'taxHandling': 'inclusive',
            'acceptsCard': True, 'acceptsBankTransfer': True,
            'ownerEmail': f'owner-{slug}@example.jp'}, token)
        self.api('POST', f'/v1/admin/projects/{made["id"]}/returns', {
            'title': '応援コース', 'description': 'お礼のメールをお送りします。',
            'price': 10000, 'returnType': 0, 'stockLimit': None,
            'lotFixed': False, 'addressRequired': False, 'addressLabel': None,
            'disabled': False, 'disabledComment': None, 'hidden': False,
            'deliveryMonth': None}, token)
        self.api('POST', f'/v1/admin/projects/{made["id"]}/publish',
                 {'publishAt': None}, token)
        ret = self.sql(f'SELECT id FROM returns WHERE project_id = {made["id"]}')
        return made['id'], int(ret)

    def back(self, project, ret, email, pay_type):
        self.api('POST', '/v1/user/register', {'email': email, 'isGuest': True})
        body = {'projectId': project, 'returnId': ret, 'lot': 1,
                'paymentType': pay_type, 'idempotencyKey': f'lifecycle-{email}',
                'displayname': 'ライフサイクル', 'agreeTerms': True,
                'notAntisocial': True, 'guestEmail': email}
        if pay_type == 1:
            body['card'] = {'paymentMethod': self.provider(
                'POST', '/v1/payment_methods', {
                'type': 'card',
                'card[number]': '4242424242424242', 'card[exp_month]': '12',
                'card[exp_year]': '2031', 'card[cvc]': '123'})['id'],
                'save': False}
        sale = self.api('POST', '/v1/payment/set/support', body)['sale']
        return sale['id'], sale['total']

    def fund(self, email, amount):
        customer = self.sql(
            'SELECT c.customer_id FROM payment_customers c JOIN users u ON'
            f" u.id = c.user_id WHERE lower(u.email) = lower('{email}')")
        self.provider('POST',
                      f'/v1/test_helpers/customers/{customer}/fund_cash_balance',
                      {'amount': amount, 'currency': 'jpy'})

    def end_yesterday(self, project):
        self.sql("UPDATE projects SET period_end = (now() AT TIME ZONE"
                 f" 'Asia/Tokyo')::date - 1 WHERE id = {project}")

    def outcome(self, project):
        return self.sql('SELECT outcome FROM project_closings WHERE'
                        f' project_id = {project}')

    def refunds(self, project):
        rows = self.sql(
            "SELECT count(*) FILTER (WHERE r.status = 'succeeded') || '|' ||"
            " count(*) FILTER (WHERE r.status IN ('pending', 'requires_action')) || '|' ||"
            " coalesce(sum(r.amount) FILTER (WHERE r.status = 'succeeded'), 0) || '|' ||"
            " count(*) FILTER (WHERE r.status = 'unclaimed')"
            ' FROM refunds r JOIN sales s ON s.id = r.sales_id'
            f' WHERE s.project_id = {project}')
        done, pending, amount, lapsed = rows.split('|')
        return int(done), int(pending), int(amount), int(lapsed)

    def refund_of(self, sale, column):
        return self.sql(f'SELECT {column} FROM refunds WHERE sales_id = {sale}'
                        ' ORDER BY id DESC LIMIT 1')

    def date_refund_back(self, sale, interval):
        """Time passing for one refund: the day it was asked is moved back."""
        self.sql(f"UPDATE refunds SET created_at = now() - interval '{interval}'"
                 f' WHERE sales_id = {sale}')

    def queued_mails(self, to, subject_part):
        return int(self.sql(
            "SELECT count(*) FROM background_jobs WHERE kind = 'send_mail'"
            f" AND lower(payload->>'to') = lower('{to}')"
            f" AND payload->>'subject' LIKE '%{subject_part}%'"))

    def owner_mail(self, slug):
        to = f'owner-{slug}@example.jp'
        subjects = self.sql(
            "SELECT string_agg(payload->>'subject', ' / ') FROM background_jobs"
            f" WHERE kind = 'send_mail' AND lower(payload->>'to') = lower('{to}')")
        count = self.queued_mails(to, '募集終了のお知らせ')
        if count != 1:
            fail(f'the owner {to} got {count} result mails, not one')
        return subjects

    def report(self, token, name, project):
        done, pending, amount, lapsed = self.refunds(project)
        line = (f'{name}: {self.outcome(project)}; refunds made {done}'
                f' ({amount} yen), pending {pending}, lapsed unclaimed {lapsed}')
        slug = self.sql(f'SELECT slug FROM projects WHERE id = {project}')
        line += f'; owner mail: {self.owner_mail(slug)}'
        if self.outcome(project) == 'succeeded':
            f = self.api('GET', f'/v1/admin/payouts/{project}', token=token)
            g = f['figures']
            line += (f"; statement: confirmed {g['confirmed']}, fee"
                     f" {g['platformFee']} (tax {g['platformFeeTax']}), bank"
                     f" charge {g['transferFee']}, paid before"
                     f" {g['carriedOver']}, payout {g['payout']}, owed"
                     f" {g['owedByOwner']}, on {f['payoutDate']}"
                     f" ({f['statusLabel']})")
        print(line)


def run(s):
    run_id = f'{int(time.time())}{os.getpid()}'
    s.start_server()
    s.provider('POST', '/_config/webhooks/lifecycle',
               {'url': s.base + '/v1/stripe/webhook',
                'secret': s.args.webhook_secret})
    token = s.admin()
    failing, ret1 = s.project(token, f'lc-fail-{run_id}', '不成立になる計画',
                              'all_or_nothing', 1_000_000)
    pending, ret2 = s.project(token, f'lc-wait-{run_id}', '入金待ちで成立する計画',
                              'all_or_nothing', 20_000)
    all_in, ret3 = s.project(token, f'lc-allin-{run_id}', '一部返金のあるオールイン',
                             'all_in', 1_000_000)

    # 1. All-or-nothing, failing: a card and a transfer, both paid.
    card_a, _ = s.back(failing, ret1, f'lc-a-{run_id}@example.jp', 1)
    bank_b, total_b = s.back(failing, ret1, f'lc-b-{run_id}@example.jp', 2)
    s.fund(f'lc-b-{run_id}@example.jp', total_b)
    wait_until('the transfer paid', lambda: s.sale_status(bank_b) == 'succeeded', 30)
    # ... and a transfer whose supporter never answers the refund's account mail.
    silent = f'lc-f-{run_id}@example.jp'
    bank_f, total_f = s.back(failing, ret1, silent, 2)
    s.fund(silent, total_f)
    wait_until('the silent transfer paid', lambda: s.sale_status(bank_f) == 'succeeded', 30)
    # 2. All-or-nothing that reaches its goal with a transfer pending at its end.
    s.back(pending, ret2, f'lc-c-{run_id}@example.jp', 1)
    bank_d, total_d = s.back(pending, ret2, f'lc-d-{run_id}@example.jp', 2)
    # 3. All-in with a partial refund.
    card_e, total_e = s.back(all_in, ret3, f'lc-e-{run_id}@example.jp', 1)
    s.api('POST', '/v1/stripe/intent/set/refund',
          {'saleId': card_e, 'amount': total_e // 2}, token)

    # The first close is killed as soon as it is decided, then restarted.
    for project in (failing, pending, all_in):
        s.end_yesterday(project)
    wait_until('the failed close decided',
               lambda: s.outcome(failing) == 'failed', 30)
    s.kill_server()
    print('server killed (-9) in the middle of the first close')
    s.start_server()
    token = s.admin()  # a restarted server signs with a new secret unless JWT_SECRET is set
    wait_until('the waiting project awaiting funds',
               lambda: s.outcome(pending) == 'awaiting_funds', 30)
    print(f'pending transfer at the end: {s.outcome(pending)}')
    s.fund(f'lc-d-{run_id}@example.jp', total_d)
    wait_until('the waiting project decided',
               lambda: s.outcome(pending) == 'succeeded', 60)
    wait_until('the all-in project decided',
               lambda: s.outcome(all_in) == 'succeeded', 30)

    # The card is refunded at once; the transfer's refund waits for an account.
    wait_until('the three refunds asked', lambda: sum(s.refunds(failing)[:2]) == 3, 60)
    waiting = s.sql("SELECT r.provider_refund_id FROM refunds r WHERE"
                    f" r.sales_id = {bank_b} AND r.provider_refund_id IS NOT NULL")
    if not waiting:
        fail('the transfer refund never reached the provider')
    s.provider('POST', f'/_test/refunds/{waiting}/bank_details', {})
    wait_until('both answered refunds made', lambda: s.refunds(failing)[0] == 2, 60)

    # The silent supporter: reminded on days 7, 30 and 150 (time moved by dating the request back), once each
    # however many sweeps run, then after 6 months the refund is cancelled at the provider and lapses unclaimed.
    if s.refund_of(bank_f, 'status') != 'requires_action':
        fail('the silent supporter\'s refund is not waiting for an account')
    for days, sent in ((8, '1'), (31, '2'), (151, '3')):
        s.date_refund_back(bank_f, f'{days} days')
        wait_until(f'reminder {sent}', lambda: s.refund_of(bank_f, 'reminders_sent') == sent, 30)
    time.sleep(2.5)  # more sweeps: nothing more is sent
    reminders = s.queued_mails(silent, '返金先口座のご入力のお願い')
    print(f'reminders sent to the supporter who never answered: {reminders} (days 7, 30, 150)')
    if reminders != 3:
        fail(f'{reminders} reminders queued, not 3')
    s.date_refund_back(bank_f, '6 months 2 days')
    wait_until('the lapse', lambda: s.refund_of(bank_f, 'status') == 'unclaimed', 30)
    provider_id = s.refund_of(bank_f, 'provider_refund_id')
    at_provider = s.provider('GET', f'/v1/refunds/{provider_id}')['status']
    print(f'refund lapsed after 6 months: ours unclaimed, provider {at_provider},'
          f' {total_f} yen kept by the company per the terms')
    if at_provider != 'canceled':
        fail(f'the lapsed refund is {at_provider} at the provider')
    per_sale = s.sql('SELECT max(n) FROM (SELECT count(*) AS n FROM refunds r'
                     f' JOIN sales s ON s.id = r.sales_id WHERE s.project_id = {failing}'
                     ' GROUP BY r.sales_id) x')
    if per_sale != '1':
        fail(f'a sale of the failed project was refunded {per_sale} times')
    closings = s.sql('SELECT count(*) FROM project_closings WHERE project_id IN'
                     f' ({failing}, {pending}, {all_in})')
    if closings != '3':
        fail(f'{closings} closings for three projects')

    # The owner of the waiting project is paid; the statement freezes.
    statement = s.api('GET', f'/v1/admin/payouts/{pending}', token=token)
    today = s.sql("SELECT (now() AT TIME ZONE 'Asia/Tokyo')::date")
    s.api('POST', f'/v1/admin/payouts/{pending}/paid', {
        'expectedPayout': statement['figures']['payout'],
        'expectedOwed': statement['figures']['owedByOwner'],
        'paidOn': today, 'reference': f'lifecycle {run_id}'}, token)
    for name, project in (('all-or-nothing, failed', failing),
                          ('all-or-nothing, transfer at the end', pending),
                          ('all-in, partly refunded', all_in)):
        s.report(token, name, project)
    if s.refunds(all_in)[2] != total_e // 2:
        fail('the all-in project lost its partial refund')


def main():
    s = Lifecycle(parse_args())
    try:
        run(s)
    finally:
        s.stop_server()
    print('lifecycle: three campaigns closed once each, every refund made once')


if __name__ == '__main__':
    main()
