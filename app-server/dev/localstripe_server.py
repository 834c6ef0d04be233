"""Local fake Stripe API for development and tests: localstripe, tamed.

Started by `app-server/dev/services.sh up` with the venv's python:

    $ROOT/.data/venv/bin/python app-server/dev/localstripe_server.py [--port 8420]

What this wrapper changes compared to localstripe's own command:

* It listens on 127.0.0.1 only (localstripe binds every interface).
* The store lives in memory only: `Store.dump_to_disk` is a no-op, so nothing is
  pickled to /tmp/localstripe.pickle and every start is a clean slate.
  `DELETE /_config/data` still wipes it between tests.
* A compatibility layer completes the objects it returns. localstripe omits
  fields that real Stripe always sends (PaymentIntent `amount_received`,
  Charge `billing_details`, Event `pending_webhooks`, ...), and async-stripe,
  which our Rust code uses against both real Stripe and this server, refuses
  objects without them. `complete()` adds them, with the values Stripe would
  send, to every JSON response (an aiohttp middleware) and to every webhook
  event before it is signed (so the signature covers the completed body).
* PaymentIntent creation accepts (and ignores) `automatic_payment_methods`,
  which our gateway sends so that real Stripe confirms cards server-side
  without a `return_url`.
* `Idempotency-Key` is honoured like Stripe does it: a repeated POST with the
  same key and the same parameters returns the first response again instead of
  acting twice; the same key with other parameters is refused (HTTP 400,
  `idempotency_error`). localstripe itself ignores the header.

Not covered: localstripe has no Japanese bank transfer (`customer_balance`
with `jp_bank_transfer` is accepted but ignored, and funding instructions and
test-helper funding are missing). Emulating Stripe's bank-transfer shapes
(`next_action.display_bank_transfer_instructions`, `amount_remaining`,
funding leading to `payment_intent.succeeded` / `partially_funded`) is a
separate, later piece of work; it is deliberately not part of this file.

localstripe is GPL-3.0; it is only used as a local development and test
server and is never shipped with the application.
"""

import argparse
import hashlib
import json
import logging
import time

from aiohttp import web
from localstripe import resources, server, webhooks

# --- in memory only ---------------------------------------------------------

resources.Store.dump_to_disk = lambda self: None


# --- compatibility layer: accept what Stripe accepts ------------------------

_create_payment_intent = resources.PaymentIntent._api_create.__func__


@classmethod
def _create_payment_intent_compat(cls, automatic_payment_methods=None, **data):
    # Our gateway sends automatic_payment_methods[enabled]=true and
    # [allow_redirects]=never (cards only, no return_url needed); localstripe
    # only does cards anyway, so the parameter can be dropped.
    return _create_payment_intent(cls, **data)

resources.PaymentIntent._api_create = _create_payment_intent_compat


# --- compatibility layer: add the fields Stripe always sends ----------------

def _put(obj, key, value):
    """Set `key` unless localstripe already gave it a non-null value."""
    if obj.get(key) is None:
        obj[key] = value


def _id_of(value):
    """An expanded object -> its id (Stripe sends ids unless asked to expand)."""
    if isinstance(value, dict) and 'id' in value:
        return value['id']
    return value


def _payment_intent(o):
    o['latest_charge'] = _id_of(o.get('latest_charge'))
    status = o.get('status')
    amount = o.get('amount', 0)
    _put(o, 'amount_capturable',
                 amount if status == 'requires_capture' else 0)
    _put(o, 'amount_received', amount if status == 'succeeded' else 0)
    _put(o, 'confirmation_method', 'automatic')
    _put(o, 'payment_method_types', ['card'])
    _put(o, 'description', None)
    _put(o, 'receipt_email', None)
    _put(o, 'canceled_at', None)
    _put(o, 'cancellation_reason', None)
    error = o.get('last_payment_error')
    if isinstance(error, dict):
        _put(error, 'type', 'card_error')


def _charge(o):
    o['payment_intent'] = _id_of(o.get('payment_intent'))
    captured = o.get('captured') and o.get('status') == 'succeeded'
    _put(o, 'amount_captured', o.get('amount', 0) if captured else 0)
    _put(o, 'billing_details', {'address': None, 'email': None,
                                     'name': None, 'phone': None})
    _put(o, 'disputed', False)


def _refund(o):
    for key in ('reason', 'receipt_number', 'source_transfer_reversal',
                'transfer_reversal', 'description'):
        _put(o, key, None)


def _customer(o):
    _put(o, 'invoice_prefix', o.get('id', 'cus_')[4:12].upper())


def _product(o):
    _put(o, 'images', [])
    _put(o, 'marketing_features', [])
    _put(o, 'updated', o.get('created'))
    _put(o, 'type', 'service')


def _plan(o):
    _put(o, 'billing_scheme', 'per_unit')
    _put(o, 'usage_type', 'licensed')
    _put(o, 'interval_count', 1)


def _price_from_plan(plan, product):
    """Stripe's subscription items carry a Price mirroring their legacy Plan."""
    return {
        'id': plan.get('id'), 'object': 'price',
        'active': plan.get('active', True), 'billing_scheme': 'per_unit',
        'created': plan.get('created'), 'currency': plan.get('currency'),
        'livemode': False, 'lookup_key': None,
        'metadata': plan.get('metadata') or {},
        'nickname': plan.get('nickname'), 'product': product,
        'recurring': {'interval': plan.get('interval'),
                      'interval_count': plan.get('interval_count', 1),
                      'usage_type': plan.get('usage_type', 'licensed'),
                      'meter': None, 'trial_period_days': None},
        'tax_behavior': 'unspecified', 'type': 'recurring',
        'unit_amount': plan.get('amount'),
        'unit_amount_decimal': str(plan.get('amount')),
    }


def _subscription(o):
    _put(o, 'automatic_tax', {'enabled': False, 'liability': None,
                                   'disabled_reason': None})
    _put(o, 'billing_mode', {'type': 'classic', 'flexible': None})
    _put(o, 'billing_schedules', [])
    _put(o, 'collection_method', 'charge_automatically')
    _put(o, 'discounts', [])
    _put(o, 'billing_cycle_anchor', o.get('current_period_start')
                 or o.get('created'))
    _put(o, 'start_date', o.get('created'))
    _put(o, 'cancel_at_period_end', False)
    o['customer'] = _id_of(o.get('customer'))
    settings = o.get('invoice_settings')
    if not isinstance(settings, dict):
        settings = o['invoice_settings'] = {}
    _put(settings, 'issuer', {'type': 'self'})
    _put(settings, 'account_tax_ids', None)
    items = (o.get('items') or {}).get('data') or []
    for item in items:
        plan = item.get('plan') or {}
        product = _id_of(plan.get('product'))
        _put(item, 'price', _price_from_plan(plan, product))
        _put(item, 'current_period_start', o.get('current_period_start'))
        _put(item, 'current_period_end', o.get('current_period_end'))
        _put(item, 'subscription', o.get('id'))
        _put(item, 'discounts', [])
        _put(item, 'created', o.get('created'))
        _put(item, 'metadata', {})
    if 'currency' not in o:
        plan = (items[0].get('plan') or {}) if items else (o.get('plan') or {})
        o['currency'] = plan.get('currency', 'jpy')


def _invoice(o):
    total = o.get('total', 0)
    paid = o.get('status') == 'paid'
    _put(o, 'amount_due', total)
    _put(o, 'amount_paid', total if paid else 0)
    _put(o, 'amount_overpaid', 0)
    _put(o, 'amount_remaining', 0 if paid else total)
    _put(o, 'amount_shipping', 0)
    _put(o, 'attempt_count', 1 if o.get('status') != 'draft' else 0)
    _put(o, 'attempted', o.get('status') != 'draft')
    _put(o, 'automatic_tax', {'enabled': False, 'liability': None,
                                   'disabled_reason': None, 'status': None})
    _put(o, 'collection_method', 'charge_automatically')
    _put(o, 'default_tax_rates', [])
    _put(o, 'discounts', [])
    _put(o, 'issuer', {'type': 'self'})
    _put(o, 'payment_settings', {'default_mandate': None,
                                      'payment_method_options': None,
                                      'payment_method_types': None})
    _put(o, 'period_start', o.get('created'))
    _put(o, 'period_end', o.get('created'))
    _put(o, 'post_payment_credit_notes_amount', 0)
    _put(o, 'pre_payment_credit_notes_amount', 0)
    _put(o, 'starting_balance', 0)
    _put(o, 'subtotal', total)
    _put(o, 'status_transitions', {
        'finalized_at': None, 'marked_uncollectible_at': None,
        'paid_at': o.get('created') if paid else None, 'voided_at': None})
    o['customer'] = _id_of(o.get('customer'))
    o['subscription'] = _id_of(o.get('subscription'))
    o['payment_intent'] = _id_of(o.get('payment_intent'))


def _line_item(o):
    _put(o, 'discountable', True)
    _put(o, 'discounts', [])
    _put(o, 'metadata', {})
    _put(o, 'subtotal', o.get('amount', 0))
    _put(o, 'livemode', False)


def _tax_rate(o):
    _put(o, 'display_name', o.get('description') or 'Tax')
    _put(o, 'active', True)


def _event(o):
    _put(o, 'pending_webhooks', 0)
    _put(o, 'request', {'id': None, 'idempotency_key': None})


_FIXERS = {
    'payment_intent': _payment_intent, 'charge': _charge, 'refund': _refund,
    'customer': _customer, 'product': _product, 'plan': _plan,
    'subscription': _subscription, 'invoice': _invoice,
    'line_item': _line_item, 'tax_rate': _tax_rate, 'event': _event,
}


def complete(value):
    """Recursively add missing Stripe fields to every object in `value`."""
    if isinstance(value, list):
        for item in value:
            complete(item)
    elif isinstance(value, dict):
        for item in value.values():
            complete(item)  # children first, so parents can rely on them
        kind = value.get('object')  # an event's data.object is a dict
        fixer = _FIXERS.get(kind) if isinstance(kind, str) else None
        if fixer:
            fixer(value)
    return value


@web.middleware
async def compat_middleware(request, handler):
    response = await handler(request)
    if (isinstance(response, web.Response) and response.body
            and response.content_type == 'application/json'):
        data = complete(json.loads(response.body))
        error = data.get('error') if isinstance(data, dict) else None
        if response.status == 402 and isinstance(error, dict):
            error['type'] = 'card_error'  # what Stripe calls a decline
        response = server.json_response(data, status=response.status)
    return response


# Webhooks: localstripe signs `json.dumps(event._export())`. Hand it an event
# whose export is already completed, so the signed body is the complete one.
class _CompletedEvent:
    def __init__(self, event):
        self.created = event.created
        self.type = event.type
        self._event = event

    def _export(self, expand=None):
        # A deep copy: localstripe's exports share dicts with its store.
        data = json.loads(json.dumps(self._event._export(expand=expand)))
        complete(data)
        data['pending_webhooks'] = max(1, len(webhooks._webhooks))
        return data


_send_webhook = webhooks._send_webhook


async def _send_completed_webhook(event):
    await _send_webhook(_CompletedEvent(event))

webhooks._send_webhook = _send_completed_webhook


# --- Idempotency-Key, as Stripe honours it -----------------------------------

_idempotent = {}  # (secret key, key) -> (request fingerprint, status, body)


@web.middleware
async def idempotency_middleware(request, handler):
    if request.method == 'DELETE' and request.path == '/_config/data':
        _idempotent.clear()  # wiping the store forgets the keys too
    key = request.headers.get('Idempotency-Key')
    if request.method != 'POST' or not key or \
            request.path.startswith('/_config/'):
        return await handler(request)
    scope = (request.headers.get('Authorization', ''), key)
    fingerprint = hashlib.sha256(
        request.path.encode() + b'\0' + await request.read()).hexdigest()
    if scope in _idempotent:
        seen, status, body = _idempotent[scope]
        if seen != fingerprint:
            return server.json_response({'error': {
                'type': 'idempotency_error',
                'message': 'Keys for idempotent requests can only be used '
                           'with the same parameters they were first used '
                           'with.'}}, status=400)
        return web.Response(body=body, status=status,
                            content_type='application/json',
                            headers={'Idempotent-Replayed': 'true'})
    response = await handler(request)
    if isinstance(response, web.Response) and response.status < 500:
        _idempotent[scope] = (fingerprint, response.status, response.body)
    return response


def build_app():
    # Outermost first: idempotency replays the completed response; compat
    # also sees localstripe's errors, already turned into JSON responses.
    server.app.middlewares[0:0] = [idempotency_middleware, compat_middleware]
    return server.app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--port', type=int, default=8420)
    args = parser.parse_args()

    logging.basicConfig(level=logging.INFO,
                        format='%(asctime)s %(name)s %(message)s')
    logging.Formatter.converter = time.gmtime
    web.run_app(build_app(), host=args.host, port=args.port,
                access_log=logging.getLogger('aiohttp.access'),
                print=lambda *a: logging.info(*a))


if __name__ == '__main__':
    main()
