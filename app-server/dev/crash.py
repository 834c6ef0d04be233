"""The crash test of issue #9, driven by app-server/dev/crash.sh: an
app-server is killed (-9) after the provider confirmed a card payment and
before our write; after a restart the sale must be paid within 60 s by the
reconciler, with one PaymentIntent at the provider. Then every webhook of the
run is replayed twice, newest first: sales, totals and mails must not change.

The provider is the wrapper of app-server/dev/localstripe_server.py, run for
this test alone (its `/_test/delay_next` hook holds one answer): every
PaymentIntent it holds is this run's.
"""

import argparse
import hashlib
import hmac
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

PROJECT = 'maebashi-rose-garden'
RETURN = 'thanks-mail'
PAID_WITHIN = 60


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--app-server', required=True, help='the binary')
    parser.add_argument('--database-url', required=True)
    parser.add_argument('--port', type=int, required=True)
    parser.add_argument('--stripe', required=True, help='provider base URL')
    parser.add_argument('--stripe-key', required=True)
    parser.add_argument('--webhook-secret', required=True)
    parser.add_argument('--log', required=True, help='app-server log file')
    parser.add_argument('--hold', type=float, default=15,
                        help='seconds the provider holds its answer')
    return parser.parse_args()


class Scenario:
    def __init__(self, args):
        self.args = args
        self.base = f'http://127.0.0.1:{args.port}'
        self.stripe = args.stripe.rstrip('/')
        self.server = None

    # --- processes ----------------------------------------------------------

    def start_server(self):
        env = dict(os.environ, DATABASE_URL=self.args.database_url,
                   APP_PORT=str(self.args.port), PUBLIC_URL=self.base,
                   STRIPE_API_BASE=self.stripe + '/',
                   STRIPE_SECRET_KEY=self.args.stripe_key,
                   STRIPE_WEBHOOK_SECRET=self.args.webhook_secret,
                   RECONCILE_AFTER_SECONDS='5', PAYMENT_SWEEP_SECONDS='2',
                   RUST_LOG='warn')
        log = open(self.args.log, 'a')
        self.server = subprocess.Popen([self.args.app_server], env=env,
                                       stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                fail(f'app-server exited ({self.server.returncode}); '
                     f'see {self.args.log}')
            try:
                urllib.request.urlopen(self.base + '/readyz', timeout=2)
                return
            except (urllib.error.URLError, OSError):
                time.sleep(0.3)
        fail('app-server not ready after 60 s')

    def kill_server(self):
        self.server.kill()  # SIGKILL: no shutdown, no last write
        self.server.wait()
        self.server = None

    def stop_server(self):
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)
            self.server = None

    # --- HTTP ---------------------------------------------------------------

    def request(self, method, url, data=None, headers=None, form=False,
                timeout=30):
        headers = dict(headers or {})
        body = None
        if data is not None and form:
            body = urllib.parse.urlencode(data).encode()
            headers['Content-Type'] = 'application/x-www-form-urlencoded'
        elif data is not None:
            body = data if isinstance(data, bytes) else \
                json.dumps(data).encode()
            headers.setdefault('Content-Type', 'application/json')
        req = urllib.request.Request(url, data=body, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b'null')
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b'null')

    def provider(self, method, path, data=None):
        status, body = self.request(
            method, self.stripe + path, data, form=True,
            headers={'Authorization': f'Bearer {self.args.stripe_key}'})
        if status >= 300:
            fail(f'provider {method} {path}: HTTP {status} {body}')
        return body

    def provider_list(self, path):
        items, after = [], None
        while True:
            query = {'limit': 100}
            if after:
                query['starting_after'] = after
            page = self.provider(
                'GET', f'{path}?{urllib.parse.urlencode(query)}')
            items += page['data']
            if not page.get('has_more') or not page['data']:
                return items
            after = page['data'][-1]['id']

    def intents_of(self, sale_id):
        # Other databases on the same provider have their own sale 1, 2, ...: the
        # server tags its payments with its database's name (key_namespace).
        ours = {'sale_id': str(sale_id), 'key_namespace': self.key_namespace()}
        return [pi for pi in self.provider_list('/v1/payment_intents')
                if all(pi.get('metadata', {}).get(k) == v for k, v in ours.items())]

    def key_namespace(self):
        name = self.args.database_url.rsplit('/', 1)[-1].split('?')[0].lower()
        return ''.join(c if c.isascii() and c.isalnum() else '_' for c in name)[:40]

    # --- database -----------------------------------------------------------

    def sql(self, query):
        out = subprocess.run(['psql', self.args.database_url, '-Atq', '-F',
                              '|', '-c', query], check=True,
                             capture_output=True, text=True).stdout
        return out.strip()

    def sale_status(self, sale_id):
        return self.sql(f'SELECT status FROM sales WHERE id = {sale_id}')

    def books(self):
        """What a replay must not change: every sale of the run, the
        project's paid figures, the lots taken and the mails queued."""
        return {
            'sales': self.sql(
                "SELECT string_agg(id || ' ' || status || ' ' || total || ' '"
                " || coalesce(intent_id, '-'), ', ' ORDER BY id) FROM sales"
                " WHERE idempotency_key LIKE 'crash-%'"),
            'paid': self.sql(
                "SELECT count(*) || ' sales, ' || coalesce(sum(total), 0) ||"
                " ' yen' FROM sales s JOIN projects p ON p.id = s.project_id"
                f" WHERE p.slug = '{PROJECT}' AND s.status = 'succeeded'"),
            'lots': self.sql(
                "SELECT sum(lots_taken) FROM returns r JOIN projects p ON"
                f" p.id = r.project_id WHERE p.slug = '{PROJECT}'"),
            'mails': self.sql('SELECT count(*) FROM background_jobs'
                              " WHERE kind LIKE '%mail%'"),
        }

    # --- the supporter --------------------------------------------------------

    def support_body(self, key, pay_type, email, card=None):
        ids = self.sql(
            "SELECT p.id || '|' || r.id FROM returns r JOIN projects p ON"
            f" p.id = r.project_id WHERE p.slug = '{PROJECT}' AND"
            f" r.slug = '{RETURN}'").split('|')
        status, _ = self.request('POST', self.base + '/v1/user/register',
                                 {'email': email, 'isGuest': True})
        if status != 200:
            fail(f'guest {email} not registered: HTTP {status}')
        body = {'projectId': int(ids[0]), 'returnId': int(ids[1]), 'lot': 2,
                'paymentType': pay_type, 'idempotencyKey': key,
                'displayname': '前橋 花子', 'agreeTerms': True,
                'notAntisocial': True, 'guestEmail': email}
        if card:
            body['card'] = {'paymentMethod': card, 'save': False}
        return body


def fail(message):
    print(f'FAILED: {message}')
    raise SystemExit(1)


def sign(payload, secret):
    """Stripe's scheme: t=<unix time>,v1=HMAC-SHA256(secret, "t.payload")."""
    stamp = int(time.time())
    digest = hmac.new(secret.encode(), f'{stamp}.'.encode() + payload,
                      hashlib.sha256).hexdigest()
    return f't={stamp},v1={digest}'


def wait_until(what, check, within):
    began = time.monotonic()
    while time.monotonic() - began < within:
        if check():
            return time.monotonic() - began
        time.sleep(0.25)
    fail(f'{what} not within {within} s')


def run(s):
    args = s.args
    run_id = f'{int(time.time())}-{os.getpid()}'
    s.start_server()
    s.provider('POST', '/_config/webhooks/crash',
               {'url': s.base + '/v1/stripe/webhook',
                'secret': args.webhook_secret})

    # 1. A card support whose answer the provider holds; killed meanwhile.
    card_method = s.provider('POST', '/v1/payment_methods', {
        'type': 'card',
        'card[number]': '4242424242424242', 'card[exp_month]': '12',
        'card[exp_year]': '2031', 'card[cvc]': '123'})['id']
    card = s.support_body(f'crash-card-{run_id}', 1,
                          f'crash-card-{run_id}@example.jp', card_method)
    s.provider('POST', '/_test/delay_next',
               {'path': '/v1/payment_intents', 'seconds': args.hold})
    placing = subprocess.Popen(
        ['curl', '-s', '-o', '/dev/null', '-m', str(args.hold + 5), '-H',
         'Content-Type: application/json', '-d', json.dumps(card),
         s.base + '/v1/payment/set/support'])
    sale_id = None

    def confirmed():
        nonlocal sale_id
        sale_id = sale_id or s.sql(
            "SELECT id FROM sales WHERE idempotency_key ="
            f" '{card['idempotencyKey']}'") or None
        return bool(sale_id) and any(pi['status'] == 'succeeded'
                                     for pi in s.intents_of(sale_id))

    wait_until('the provider confirming the payment', confirmed, args.hold)
    s.kill_server()
    placing.wait()
    status = s.sale_status(sale_id)
    print(f'sale {sale_id}: provider confirmed, server killed (-9) before '
          f'our write; sale is {status}, intent at the provider succeeded')
    if status != 'pending':
        fail(f'sale {sale_id} is {status} after the kill, expected pending')

    # 2. Restart: the reconciler asks again with the sale's own key.
    restarted = time.monotonic()
    s.start_server()
    wait_until(f'sale {sale_id} paid',
               lambda: s.sale_status(sale_id) == 'succeeded', PAID_WITHIN)
    took = time.monotonic() - restarted
    intents = s.intents_of(sale_id)
    print(f'sale {sale_id}: succeeded {took:.1f} s after the restart; '
          f'intents at the provider: {len(intents)}')
    if len(intents) != 1:
        fail(f'{len(intents)} PaymentIntents for sale {sale_id}')

    # 3. A transfer paid in two parts: its webhooks arrive in order.
    email = f'crash-bank-{run_id}@example.jp'
    bank = s.support_body(f'crash-bank-{run_id}', 2, email)
    status, answer = s.request('POST', s.base + '/v1/payment/set/support',
                               bank)
    if status != 200:
        fail(f'transfer support: HTTP {status} {answer}')
    bank_id = answer['sale']['id']
    total = answer['sale']['total']
    customer = s.provider(
        'GET', '/v1/customers?' + urllib.parse.urlencode({'email': email})
    )['data'][0]['id']
    for amount in (total // 2, total - total // 2):
        s.provider('POST',
                   f'/v1/test_helpers/customers/{customer}/fund_cash_balance',
                   {'amount': amount, 'currency': 'jpy'})
    wait_until(f'transfer {bank_id} paid',
               lambda: s.sale_status(bank_id) == 'succeeded', 30)
    time.sleep(2)  # the last webhooks of the run are in

    # 4. Replay every event of the run twice, newest first: the delivered
    # ones as stored, and the card payment's, lost with the killed server,
    # as the provider lists it.
    delivered = [json.loads(row) for row in s.sql(
        'SELECT payload::text FROM provider_events ORDER BY received_at'
    ).splitlines() if row]
    known = {e['id'] for e in delivered}
    lost = [e for e in s.provider_list('/v1/events')
            if e['id'] not in known and
            e['data']['object'].get('metadata', {}).get('sale_id')
            == str(sale_id)]
    events = sorted(delivered + lost, key=lambda e: e['created'])
    before = s.books()
    for round_ in (1, 2):
        for event in reversed(events):
            payload = json.dumps(event).encode()
            status, _ = s.request(
                'POST', s.base + '/v1/stripe/webhook', payload,
                headers={'Stripe-Signature':
                         sign(payload, args.webhook_secret)})
            if status != 200:
                fail(f'replay {round_} of {event["type"]} {event["id"]}: '
                     f'HTTP {status}')
    time.sleep(1)
    after = s.books()
    print(f'replayed {len(events)} events twice, newest first '
          f'({len(lost)} never delivered): '
          + ', '.join(sorted({e["type"] for e in events})))
    for key in before:
        print(f'  {key:<6} before: {before[key]}')
        print(f'  {key:<6} after:  {after[key]}')
    if before != after:
        fail('the replay changed the books')
    return took


def main():
    s = Scenario(parse_args())
    try:
        took = run(s)
    finally:
        s.stop_server()
    print(f'crash: paid {took:.1f} s after the restart (limit {PAID_WITHIN}'
          ' s), one intent, replays changed nothing')


if __name__ == '__main__':
    main()
