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

* Connect fields of a destination charge: PaymentIntent creation accepts
  `application_fee_amount` and `transfer_data[destination]` (an `acct_...`
  id; no account is checked, there are none locally) and echoes them on
  the PaymentIntent, in responses and webhooks.
* Japanese bank transfer, which localstripe lacks, in Stripe's own shapes
  (see "bank transfer emulation" below): a `customer_balance` PaymentIntent
  with `payment_method_options[customer_balance][funding_type]=bank_transfer`
  and `[bank_transfer][type]=jp_bank_transfer`, created with `confirm=true`,
  gets `requires_action` and `next_action.display_bank_transfer_instructions`
  (a zengin account per customer, `amount_remaining`, `reference`);
  `POST /v1/test_helpers/customers/{customer}/fund_cash_balance` plays a
  transfer arriving and applies it to the customer's open transfers:
  `payment_intent.partially_funded` or `payment_intent.succeeded`.
  A paid transfer can be refunded in parts up to what arrived (settled at
  once: `succeeded`), and its refunds are listed by `payment_intent`. A refund waiting for the customer's bank
  account (`requires_action`) may be cancelled (`POST /v1/refunds/{id}/cancel`, `refund.updated`). Limits: no separate `/confirm` of a bank
  PaymentIntent, no cash-balance endpoints, no
  `customer_cash_balance_transaction.*` or `cash_balance.*` events.
* Konbini (convenience-store payment), which localstripe lacks, in Stripe's
  shapes (see "konbini emulation" below): a PaymentIntent with
  `payment_method_types=[konbini]` (or `allowed_payment_method_types`),
  `payment_method_data[type]=konbini` with `billing_details[name]` and
  `[email]` (Stripe requires both) and `payment_method_options[konbini]`
  `[expires_after_days]` (1-60, default 3: 23:59:59 JST that many days after
  the confirmation) or `[expires_at]`, created with `confirm=true`, gets
  `requires_action` and `next_action.konbini_display_details` (expires_at,
  hosted_voucher_url, stores familymart / lawson / ministop / seicomart with
  payment_code and confirmation_number). Test hooks play the store:
  `POST /_test/konbini/{pi}/pay` pays the voucher in full (`succeeded`,
  `payment_intent.succeeded`); `POST /_test/konbini/{pi}/expire` lets it
  expire unpaid (`requires_payment_method` with the voucher gone,
  `payment_intent.payment_failed`, as Stripe reports an expired voucher).
  A paid voucher is refunded as a paid transfer is (`instructions_email`:
  the refund waits for the customer's bank account).
* Cards saved as customer sources (token -> `POST /v1/customers/{c}/sources`
  -> `card_...`), as Stripe keeps them: the brand follows the number (Visa,
  MasterCard, American Express, JCB, Diners Club, Discover; localstripe
  calls every card Visa), a token attaches once (400 `token_already_used`),
  the list takes `limit`/`starting_after`, `default_source` must be one of
  the customer's cards and deleting a source answers the deleted card; an
  unknown or foreign card is `resource_missing`. localstripe's own rules
  stay: 16-digit numbers only (no 15-digit Amex, no 14-digit Diners).
* Cancelling a PaymentIntent (also an open bank transfer) takes
  `cancellation_reason`, sends `payment_intent.canceled`, and refuses a
  succeeded or cancelled one with Stripe's `payment_intent_unexpected_state`
  error carrying the intent.
* 3-D Secure (cards 4000002500003155 and the others localstripe knows):
  confirming gives `requires_action` (`next_action.type = use_stripe_sdk`).
  The fake Stripe.js's `stripe.confirmCardPayment(clientSecret)` opens a box
  in the page ("3D Secure / Do you want to confirm or cancel?") with two
  buttons, "Complete authentication" and "Fail authentication", then calls
  `POST /v1/payment_intents/{id}/_authenticate?success=true|false` (form or
  JSON `client_secret`; tests call it directly to play the supporter).
  Passed: the payment succeeds, `payment_intent.succeeded`, and the page gets
  `{paymentIntent}`. Failed: as with Stripe, HTTP 400
  `payment_intent_authentication_failure` with the intent (back at
  `requires_payment_method`) in `error.payment_intent`, so the page gets
  `{error}`, and `payment_intent.payment_failed` is sent.

* A slow provider, for the crash test (app-server/dev/crash.sh):
  `POST /_test/delay_next` (secret key; form `path=/v1/payment_intents`,
  `seconds=N`, optional `key_prefix=...` to hold only a request whose
  Idempotency-Key starts with it, so that tests running at once on one
  server are not held) makes the next POST to exactly that path be carried out as
  usual (the PaymentIntent created and confirmed, its idempotency key
  remembered) and then holds the answer N seconds. The webhooks that request
  sends are held as long, so a client killed meanwhile hears of the payment
  neither way. `DELETE /_config/data` forgets delays not used yet.

localstripe is GPL-3.0; it is only used as a local development and test
server and is never shipped with the application.
"""

import argparse
import asyncio
import calendar
import datetime
import contextvars
import hashlib
import json
import logging
import os
import time
import urllib.parse

from aiohttp import web
from localstripe import resources, server, webhooks
from localstripe.errors import UserError

# --- in memory only ---------------------------------------------------------

resources.Store.dump_to_disk = lambda self: None


# --- compatibility layer: accept what Stripe accepts ------------------------

_create_payment_intent = resources.PaymentIntent._api_create.__func__
_init_payment_intent = resources.PaymentIntent.__init__


def _int_param(value, name):
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UserError(400, 'Invalid integer: %s' % name)
    if number < 0:
        raise UserError(400, 'Invalid %s: must be at least 0' % name)
    return number


def _connect_fields(amount, application_fee_amount, transfer_data):
    """Checks a destination charge's fields as Stripe would, before the
    PaymentIntent is stored. Returns (fee or None, transfer_data or None)."""
    fee = None
    if application_fee_amount is not None:
        fee = _int_param(application_fee_amount, 'application_fee_amount')
        if fee > _int_param(amount, 'amount'):
            raise UserError(400, 'application_fee_amount cannot be greater '
                                 'than the amount')
    data = None
    if transfer_data is not None:
        destination = transfer_data.get('destination') \
            if isinstance(transfer_data, dict) else None
        if not (isinstance(destination, str) and
                destination.startswith('acct_')):
            raise UserError(400, 'Invalid transfer_data[destination]')
        data = {'destination': destination, 'amount': None}
    if fee is not None and data is None:
        raise UserError(400, 'application_fee_amount needs '
                             'transfer_data[destination] or on_behalf_of')
    return fee, data


def _init_payment_intent_compat(self, application_fee_amount=None,
                                transfer_data=None, payment_method_types=None,
                                allowed_payment_method_types=None,
                                payment_method_options=None, **kwargs):
    # API version 2026-09-30 (async-stripe 1.0) names the list
    # allowed_payment_method_types; older versions payment_method_types.
    types = allowed_payment_method_types or payment_method_types
    fee, transfer = _connect_fields(kwargs.get('amount'),
                                    application_fee_amount, transfer_data)
    bank = _bank_transfer_options(types, payment_method_options)
    konbini = _konbini_options(types, payment_method_options)
    if konbini and kwargs.get('currency') != 'jpy':
        raise UserError(400, 'konbini only supports jpy')
    if bank:
        if not (isinstance(kwargs.get('customer'), str)):
            raise UserError(400, 'A customer is required for '
                                 'customer_balance payments')
        if kwargs.get('currency') != 'jpy':
            raise UserError(400, 'jp_bank_transfer only supports jpy')
    _init_payment_intent(self, payment_method_types=types,
                         payment_method_options=payment_method_options,
                         **kwargs)
    # Public attributes are exported (responses and webhook bodies).
    self.application_fee_amount = fee
    self.transfer_data = transfer
    if bank:
        self.payment_method_types = ['customer_balance']
        if allowed_payment_method_types:
            self.allowed_payment_method_types = ['customer_balance']
        self.payment_method_options = {'customer_balance': bank}
        self._bank = None  # set on confirmation
    if konbini:
        self.payment_method_types = ['konbini']
        if allowed_payment_method_types:
            self.allowed_payment_method_types = ['konbini']
        self.payment_method_options = {'konbini': konbini}
        self._konbini = None  # set on confirmation


resources.PaymentIntent.__init__ = _init_payment_intent_compat


@classmethod
def _create_payment_intent_compat(cls, automatic_payment_methods=None,
                                  payment_method_data=None, confirm=None,
                                  **data):
    # Our gateway sends automatic_payment_methods[enabled]=true and
    # [allow_redirects]=never for cards (no return_url needed); localstripe
    # only does cards anyway, so the parameter can be dropped.
    types = data.get('allowed_payment_method_types') or \
        data.get('payment_method_types')
    if _bank_transfer_options(types, data.get('payment_method_options')):
        # Stripe confirms a customer_balance PaymentIntent without a saved
        # PaymentMethod only with payment_method_data[type]=customer_balance.
        if not (isinstance(payment_method_data, dict) and
                payment_method_data.get('type') == 'customer_balance'):
            raise UserError(400, 'payment_method_data[type]=customer_balance'
                                 ' is required')
        obj = _create_payment_intent(cls, **data)
        if resources.try_convert_to_bool(confirm):
            _confirm_bank_transfer(obj)
        return obj
    if _konbini_options(types, data.get('payment_method_options')):
        billing = _konbini_billing(payment_method_data)
        obj = _create_payment_intent(cls, **data)
        if resources.try_convert_to_bool(confirm):
            _confirm_konbini(obj, billing)
        return obj
    if payment_method_data is not None:
        raise UserError(400, 'Unexpected payment_method_data')
    if confirm is not None:
        data['confirm'] = confirm
    return _create_payment_intent(cls, **data)


resources.PaymentIntent._api_create = _create_payment_intent_compat


_init_refund = resources.Refund.__init__


def _init_refund_compat(self, reverse_transfer=None,
                        refund_application_fee=None, instructions_email=None,
                        **kwargs):
    # Refunds of destination charges may pull the money back from the
    # connected account and return the application fee in proportion; there
    # are no accounts locally, so both flags are accepted (as Stripe does)
    # and have nothing to act on.
    _refuse_injected_failure(kwargs.get('payment_intent'))
    bank = _bank_transfer_intent(kwargs.get('payment_intent'))
    if bank is not None:
        _init_bank_transfer_refund(self, bank,
                                   instructions_email=instructions_email,
                                   **kwargs)
        return
    if instructions_email is not None and \
            not isinstance(instructions_email, str):
        raise UserError(400, 'Invalid instructions_email')
    _refuse_refund_above_unrefunded(kwargs.get('charge'),
                                    kwargs.get('payment_intent'),
                                    kwargs.get('amount'))
    _init_refund(self, **kwargs)


# --- refunds the provider refuses (tests of partial failure) ----------------
#
# `POST /_test/refund_failures` (secret key; form `payment_intent=pi_...`,
# repeatable, and an optional `message`) makes every refund of those
# payments fail as Stripe refuses one (HTTP 400, `invalid_request_error`,
# code `balance_insufficient`) until `DELETE /_test/refund_failures`
# (`?payment_intent=...` for some only) or `DELETE /_config/data`. A refused request is remembered under its
# idempotency key like any 400, so a retry must come with a new key.

_refund_failures = {}  # payment intent id -> message
_DEFAULT_REFUND_FAILURE = ('Insufficient funds in the Stripe balance to '
                           'cover this refund (test failure injected).')


def _refuse_injected_failure(payment_intent):
    if isinstance(payment_intent, str) and payment_intent in _refund_failures:
        raise UserError(400, _refund_failures[payment_intent],
                        contents={'code': 'balance_insufficient'})


# `DELETE /_config/webhooks/{id}` removes a webhook registered under that id
# (localstripe can only add them): a test server that stops takes its hook
# with it, so later events are not posted to a port nobody listens on, or to
# another test's server that took the port over.
async def _remove_webhook(request):
    removed = webhooks._webhooks.pop(request.match_info['id'], None)
    return server.json_response({'id': request.match_info['id'], 'deleted': removed is not None})


async def _set_refund_failures(request):
    data = await request.post()
    intents = data.getall('payment_intent', [])
    message = data.get('message') or _DEFAULT_REFUND_FAILURE
    if not intents or not all(isinstance(i, str) and i.startswith('pi_')
                              for i in intents):
        return server.json_response({'error': {
            'type': 'invalid_request_error',
            'message': 'payment_intent=pi_... is required (repeatable)'}},
            status=400)
    for intent in intents:
        _refund_failures[intent] = message
    return server.json_response({'payment_intents': sorted(_refund_failures)})


async def _clear_refund_failures(request):
    # Only the named payments (tests running side by side keep theirs); all
    # without a name.
    intents = request.query.getall('payment_intent', [])
    if intents:
        for intent in intents:
            _refund_failures.pop(intent, None)
    else:
        _refund_failures.clear()
    return server.json_response({'payment_intents': sorted(_refund_failures)})


def _refuse_refund_above_unrefunded(charge, payment_intent, amount):
    """Stripe refuses a refund above what remains of the charge; localstripe
    does not check."""
    if amount is None:
        return
    if isinstance(payment_intent, str) and payment_intent.startswith('pi_'):
        pi = resources.PaymentIntent._api_retrieve(payment_intent)
        if pi.latest_charge is None:
            return  # localstripe answers this case itself
        charge_obj = pi.latest_charge
    elif isinstance(charge, str) and charge.startswith('ch_'):
        charge_obj = resources.Charge._api_retrieve(charge)
    else:
        return
    remaining = charge_obj.amount - (charge_obj.amount_refunded or 0)
    requested = resources.try_convert_to_int(amount)
    if isinstance(requested, int) and requested > remaining:
        raise UserError(400, 'Refund amount (¥{:,}) is greater than '
                             'unrefunded amount on charge (¥{:,})'
                        .format(requested, remaining))


resources.Refund.__init__ = _init_refund_compat

_list_refunds = resources.Refund._api_list_all.__func__


@classmethod
def _list_refunds_compat(cls, url, charge=None, payment_intent=None,
                         limit=None, starting_after=None):
    """localstripe finds a PaymentIntent's refunds through its charge; an
    emulated bank transfer has none, and its refunds name the PaymentIntent
    itself (as Stripe's list by `payment_intent` answers either)."""
    bank = _bank_transfer_intent(payment_intent) if charge is None else None
    if bank is None:
        return _list_refunds(cls, url, charge=charge,
                             payment_intent=payment_intent, limit=limit,
                             starting_after=starting_after)
    li = super(resources.Refund, cls)._api_list_all(
        url, limit=limit, starting_after=starting_after)
    li._list = [r for r in li._list
                if getattr(r, 'payment_intent', None) == bank.id]
    li._list.sort(key=lambda r: r.date, reverse=True)
    return li


resources.Refund._api_list_all = _list_refunds_compat


# --- bank transfer emulation (jp_bank_transfer) ------------------------------
#
# Stripe's flow: confirming a customer_balance PaymentIntent gives the
# customer a virtual zengin account (one per customer); transfers into it
# land in the customer's cash balance, which Stripe applies to the open
# PaymentIntents (the one whose reference the sender quoted first, then the
# oldest). Fixed fake bank data below; the account number is derived from
# the customer id, so it is stable for a customer within one store.

BANK = {'bank_name': 'ローカル銀行', 'bank_code': '0999',
        'branch_name': 'テスト支店', 'branch_code': '999',
        'account_holder_name': 'ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ'}

_cash_balances = {}  # customer id -> yen received but not applied yet


def _bank_transfer_options(types, options):
    """The normalised customer_balance options when this is a jp bank
    transfer request, else None (a card PaymentIntent)."""
    if not (isinstance(types, list) and 'customer_balance' in types):
        return None
    balance = (options or {}).get('customer_balance') \
        if isinstance(options, dict) else None
    if not isinstance(balance, dict) or \
            balance.get('funding_type') != 'bank_transfer':
        raise UserError(400, 'payment_method_options[customer_balance]'
                             '[funding_type] must be bank_transfer')
    transfer = balance.get('bank_transfer') or {}
    if not isinstance(transfer, dict) or \
            transfer.get('type') != 'jp_bank_transfer':
        raise UserError(400, 'Only jp_bank_transfer is emulated locally')
    return {'funding_type': 'bank_transfer', 'setup_future_usage': None,
            'bank_transfer': {'type': 'jp_bank_transfer',
                              'requested_address_types': ['zengin'],
                              'eu_bank_transfer': None}}


def _account_number(customer_id):
    digest = hashlib.sha256(customer_id.encode()).hexdigest()
    return '%07d' % (int(digest, 16) % 10_000_000)


def _zengin_address(customer_id):
    no_address = {'city': None, 'country': 'JP', 'line1': None,
                  'line2': None, 'postal_code': None, 'state': None}
    return {'type': 'zengin', 'supported_networks': ['zengin'],
            'zengin': dict(BANK, account_number=_account_number(customer_id),
                           account_type='futsu',
                           account_holder_address=dict(no_address),
                           bank_address=dict(no_address))}


def _instructions(pi):
    bank = pi._bank
    return {'type': 'display_bank_transfer_instructions',
            'display_bank_transfer_instructions': {
                'type': 'jp_bank_transfer', 'currency': 'jpy',
                'amount_remaining': bank['remaining'],
                'reference': bank['reference'],
                'financial_addresses': [_zengin_address(pi.customer)],
                'hosted_instructions_url': None}}


def _is_open_bank_transfer(pi):
    return (getattr(pi, '_bank', None) is not None and
            pi._bank['remaining'] > 0 and not pi._canceled)


def _confirm_bank_transfer(pi):
    pi.payment_method = 'pm_cb_' + resources.random_id(14)
    pi._bank = {'remaining': pi.amount,
                'reference': resources.random_id(8).upper()}
    pi.next_action = _instructions(pi)
    pi.amount_received = 0
    resources.schedule_webhook(resources.Event('payment_intent.requires_action',
                                               pi))
    # Money already waiting in the customer's balance is applied at once.
    _apply_cash_balance(pi.customer)


def _apply_cash_balance(customer_id, reference=None):
    """Applies the customer's cash balance to open transfers: the one whose
    reference was quoted first, then the oldest. Returns the PaymentIntents
    touched."""
    opened = [o for key, o in resources.store.items()
              if key.startswith('payment_intent:') and
              o.customer == customer_id and _is_open_bank_transfer(o)]
    opened.sort(key=lambda o: o._bank['reference'] != reference)
    touched = []
    for pi in opened:
        balance = _cash_balances.get(customer_id, 0)
        if balance <= 0:
            break
        applied = min(balance, pi._bank['remaining'])
        _cash_balances[customer_id] = balance - applied
        pi._bank['remaining'] -= applied
        if pi._bank['remaining'] == 0:
            pi.next_action = None
            pi._emulated_status = 'succeeded'
            pi.amount_received = pi.amount
            event = 'payment_intent.succeeded'
        else:
            pi.next_action = _instructions(pi)
            event = 'payment_intent.partially_funded'
        resources.schedule_webhook(resources.Event(event, pi))
        touched.append(pi)
    return touched


def _fund_cash_balance(id, amount=None, currency=None, reference=None,
                       **kwargs):
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    amount = _int_param(amount, 'amount')
    if amount <= 0:
        raise UserError(400, 'Invalid amount: must be greater than 0')
    if currency != 'jpy':
        raise UserError(400, 'Only jpy cash balances are emulated locally')
    if reference is not None and not isinstance(reference, str):
        raise UserError(400, 'Invalid reference')
    resources.Customer._api_retrieve(id)  # 404 for an unknown customer
    _cash_balances[id] = _cash_balances.get(id, 0) + amount
    funded = _CashBalanceTransaction(id, amount, reference)
    _apply_cash_balance(id, reference)
    return funded


class _CashBalanceTransaction:
    """Stripe's answer to fund_cash_balance: the `funded` transaction."""

    def __init__(self, customer, amount, reference):
        self.data = {
            'id': 'ccsbtxn_' + resources.random_id(14),
            'object': 'customer_cash_balance_transaction',
            'created': int(time.time()), 'currency': 'jpy',
            'customer': customer, 'livemode': False, 'type': 'funded',
            'net_amount': amount,
            'ending_balance': _cash_balances.get(customer, 0),
            'funded': {'bank_transfer': {
                'type': 'jp_bank_transfer', 'reference': reference,
                'jp_bank_transfer': {'sender_bank': None,
                                     'sender_branch': None,
                                     'sender_name': None}}}}

    def _export(self, expand=None):
        return self.data


def _bank_transfer_intent(payment_intent):
    """The bank-transfer or konbini PaymentIntent `payment_intent` names
    (money paid in cash, refunded to a bank account), else None."""
    if not (isinstance(payment_intent, str) and
            payment_intent.startswith('pi_')):
        return None
    pi = resources.PaymentIntent._api_retrieve(payment_intent)  # 404
    return pi if _cash_ledger(pi) is not None else None


def _cash_ledger(pi):
    """The emulation's record of a cash payment (refunded so far, ...)."""
    bank = getattr(pi, '_bank', None)
    return bank if bank is not None else getattr(pi, '_konbini', None)


def _init_bank_transfer_refund(self, pi, payment_intent=None, amount=None,
                               metadata=None, instructions_email=None,
                               **kwargs):
    """A refund of a funded transfer. Real Stripe returns the money to the
    customer's cash balance, or with `instructions_email` asks the customer
    for a bank account first: the refund is `requires_action` with
    `next_action.display_details.email_sent` until the customer answers
    (`POST /_test/refunds/{id}/bank_details` plays the customer here; the
    refund then succeeds and `refund.updated` is sent). Without it, the
    refund is settled at once (`succeeded`) and the balance left alone."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    if pi.status != 'succeeded':
        raise UserError(400, 'This PaymentIntent does not have a successful '
                             'charge to refund.')
    refunded = _cash_ledger(pi).get('refunded', 0)
    remaining = pi.amount_received - refunded
    amount = remaining if amount is None else _int_param(amount, 'amount')
    if amount <= 0:
        raise UserError(400, 'Invalid amount: must be greater than 0')
    if amount > remaining:
        raise UserError(400, 'Refund amount (¥{:,}) is greater than '
                             'unrefunded amount on payment (¥{:,})'
                        .format(amount, remaining))
    resources.StripeObject.__init__(self)
    _cash_ledger(pi)['refunded'] = refunded + amount
    self.charge = None
    self.payment_intent = pi.id
    self.metadata = metadata or {}
    self.amount = amount
    self.date = self.created
    self.currency = pi.currency
    self.balance_transaction = None
    if instructions_email is None:
        self.status = 'succeeded'
        self.next_action = None
    else:
        if not isinstance(instructions_email, str) or \
                '@' not in instructions_email:
            raise UserError(400, 'Invalid instructions_email')
        now = int(time.time())
        self.status = 'requires_action'
        self.next_action = {'type': 'display_details', 'display_details': {
            'email_sent': {'email_sent_at': now,
                           'email_sent_to': instructions_email},
            'expires_at': now + 45 * 24 * 3600}}


def _give_bank_details(id, **kwargs):
    """The customer named a bank account: the waiting refund is paid."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    refund = resources.Refund._api_retrieve(id)  # 404
    if refund.status != 'requires_action':
        raise UserError(400, 'This refund is not waiting for bank details.')
    refund.status = 'succeeded'
    refund.next_action = None
    resources.schedule_webhook(resources.Event('refund.updated', refund))
    return refund


def _cancel_refund(id, **kwargs):
    """`POST /v1/refunds/{id}/cancel`: as Stripe, only a refund waiting for
    the customer's bank account (`requires_action`) may be cancelled; the
    money is refundable again and `refund.updated` is sent. A repeat answers
    the refund (`canceled`) again; any other state is a 400."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    refund = resources.Refund._api_retrieve(id)  # 404
    if refund.status == 'canceled':
        return refund
    if refund.status != 'requires_action':
        raise UserError(400, 'You can only cancel refunds with a status of '
                             'requires_action.')
    pi = resources.PaymentIntent._api_retrieve(refund.payment_intent)
    _cash_ledger(pi)['refunded'] = _cash_ledger(pi).get('refunded', 0) - \
        refund.amount
    refund.status = 'canceled'
    refund.next_action = None
    resources.schedule_webhook(resources.Event('refund.updated', refund))
    return refund


_status = resources.PaymentIntent.status


def _status_compat(self):
    if self._canceled:
        return 'canceled'
    return getattr(self, '_emulated_status', None) or _status.fget(self)


resources.PaymentIntent.status = property(_status_compat)


# --- konbini emulation ------------------------------------------------------
#
# Stripe's flow: confirming a konbini PaymentIntent issues a voucher (a
# payment code and confirmation number per chain) that the customer pays in
# cash at the store, in full, before it expires; Stripe then reports
# `payment_intent.succeeded`. A voucher that expires unpaid sends
# `payment_intent.payment_failed` and leaves the PaymentIntent at
# `requires_payment_method`. Numbers here are random digits.

JST = datetime.timezone(datetime.timedelta(hours=9))
KONBINI_CHAINS = ('familymart', 'lawson', 'ministop', 'seicomart')


def _konbini_options(types, options):
    """The normalised konbini options when this is a konbini request, else
    None."""
    if not (isinstance(types, list) and 'konbini' in types):
        return None
    if len(types) != 1:
        raise UserError(400, 'Only konbini alone is emulated locally')
    konbini = (options or {}).get('konbini') if isinstance(options, dict) \
        else None
    konbini = konbini if isinstance(konbini, dict) else {}
    days, at = konbini.get('expires_after_days'), konbini.get('expires_at')
    if days is not None and at is not None:
        raise UserError(400, 'Only one of expires_after_days or expires_at '
                             'may be set')
    if days is not None:
        days = _int_param(days, 'payment_method_options[konbini]'
                                '[expires_after_days]')
        if not 1 <= days <= 60:
            raise UserError(400, 'expires_after_days must be between 1 and '
                                 '60')
    if at is not None:
        at = _int_param(at, 'payment_method_options[konbini][expires_at]')
        if not time.time() < at <= time.time() + 60 * 24 * 3600:
            raise UserError(400, 'expires_at must be in the future and '
                                 'within 60 days')
    return {'confirmation_number': None, 'expires_after_days': days,
            'expires_at': at, 'product_description': None,
            'setup_future_usage': None}


def _konbini_billing(payment_method_data):
    """Stripe confirms a konbini PaymentIntent without a saved PaymentMethod
    only with payment_method_data[type]=konbini and the payer's name and
    e-mail."""
    if not (isinstance(payment_method_data, dict) and
            payment_method_data.get('type') == 'konbini'):
        raise UserError(400, 'payment_method_data[type]=konbini is required')
    billing = payment_method_data.get('billing_details')
    billing = billing if isinstance(billing, dict) else {}
    for field in ('name', 'email'):
        if not (isinstance(billing.get(field), str) and
                billing[field].strip()):
            raise UserError(400, 'Missing required param: payment_method_data'
                                 '[billing_details][%s].' % field)
    return {'name': billing['name'], 'email': billing['email']}


def _digits(n):
    return ''.join(str(int(c, 36) % 10) for c in resources.random_id(n))


def _konbini_expiry(options):
    if options.get('expires_at') is not None:
        return options['expires_at']
    days = options.get('expires_after_days') or 3
    today = datetime.datetime.now(JST).date()
    last = datetime.datetime.combine(today + datetime.timedelta(days=days),
                                     datetime.time(23, 59, 59), JST)
    return int(last.timestamp())


def _konbini_action(pi):
    voucher = pi._konbini
    return {'type': 'konbini_display_details',
            'konbini_display_details': {
                'expires_at': voucher['expires_at'],
                'hosted_voucher_url':
                    'https://payments.stripe.com/konbini/voucher/test_' +
                    pi.id,
                'stores': {chain: dict(code)
                           for chain, code in voucher['stores'].items()}}}


def _confirm_konbini(pi, billing):
    pi.payment_method = 'pm_kb_' + resources.random_id(14)
    options = pi.payment_method_options['konbini']
    confirmation = _digits(11)
    pi._konbini = {
        'expires_at': _konbini_expiry(options), 'billing': billing,
        'stores': {chain: {'payment_code': _digits(12),
                           # Seicomart asks for no confirmation number.
                           'confirmation_number':
                               None if chain == 'seicomart' else confirmation}
                   for chain in KONBINI_CHAINS}}
    pi.next_action = _konbini_action(pi)
    pi.amount_received = 0
    resources.schedule_webhook(resources.Event('payment_intent.requires_action',
                                               pi))


def _konbini_intent(id):
    pi = resources.PaymentIntent._api_retrieve(id)  # 404
    if getattr(pi, '_konbini', None) is None:
        raise UserError(400, 'This PaymentIntent has no konbini voucher.')
    if pi.status != 'requires_action':
        raise UserError(400, 'This konbini voucher is %s, not payable.' %
                        pi.status)
    return pi


def _pay_konbini(id, **kwargs):
    """The customer paid the voucher at the store: in full."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    pi = _konbini_intent(id)
    pi.next_action = None
    pi._emulated_status = 'succeeded'
    pi.amount_received = pi.amount
    resources.schedule_webhook(resources.Event('payment_intent.succeeded', pi))
    return pi


def _expire_konbini(id, **kwargs):
    """The voucher's deadline passed unpaid: Stripe reports the payment
    failed and the PaymentIntent needs a new payment method."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    pi = _konbini_intent(id)
    pi.next_action = None
    pi._emulated_status = 'requires_payment_method'
    resources.schedule_webhook(
        resources.Event('payment_intent.payment_failed', pi))
    return pi


# --- cards saved as customer sources ----------------------------------------
#
# localstripe calls every card Visa, lets a token be attached any number of
# times, answers the removal of a source with the customer and takes any
# string as a customer's default_source. Stripe does none of that.

def _brand(number):
    """(Card brand, PaymentMethod brand code) from the number, as Stripe
    names them."""
    digits = number or ''

    def starts(low, high, width):
        head = digits[:width]
        return len(head) == width and low <= int(head) <= high

    if digits.startswith('4'):
        return 'Visa', 'visa'
    if starts(51, 55, 2) or starts(2221, 2720, 4):
        return 'MasterCard', 'mastercard'
    if starts(34, 34, 2) or starts(37, 37, 2):
        return 'American Express', 'amex'
    if starts(3528, 3589, 4):
        return 'JCB', 'jcb'
    if starts(300, 305, 3) or starts(36, 36, 2) or starts(38, 39, 2):
        return 'Diners Club', 'diners'
    if digits.startswith('6011') or starts(644, 649, 3) or \
            digits.startswith('65'):
        return 'Discover', 'discover'
    if digits.startswith('62'):
        return 'UnionPay', 'unionpay'
    return 'Unknown', 'unknown'


_init_card = resources.Card.__init__


def _init_card_compat(self, *args, **kwargs):
    _init_card(self, *args, **kwargs)
    self.brand = _brand(self._card_number)[0]


resources.Card.__init__ = _init_card_compat

_init_payment_method = resources.PaymentMethod.__init__


def _init_payment_method_compat(self, *args, **kwargs):
    _init_payment_method(self, *args, **kwargs)
    if self.type == 'card':
        self.card['brand'] = _brand(self._card_number)[1]


resources.PaymentMethod.__init__ = _init_payment_method_compat

_used_tokens = set()


def _add_source(id, source=None, **kwargs):
    token = source if isinstance(source, str) and \
        source.startswith('tok_') else None
    if token in _used_tokens:
        raise UserError(400, 'You cannot use a Stripe token more than once: '
                             '%s.' % token, {'code': 'token_already_used'})
    card = resources.Customer._api_add_source(id, source=source, **kwargs)
    if token:
        _used_tokens.add(token)
    return card


def _no_such_source(source_id, param=None):
    contents = {'code': 'resource_missing'}
    if param:
        contents['param'] = param
    return UserError(404 if param is None else 400,
                     "No such source: '%s'" % source_id, contents)


def _owned_card(customer, card_id, param=None):
    for source in customer.sources._list:
        if source.id == card_id:
            return source
    raise _no_such_source(card_id, param)


def _remove_source(id, source_id=None, **kwargs):
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    customer = resources.Customer._api_retrieve(id)  # 404
    card = _owned_card(customer, source_id)
    resources.Customer._api_remove_source(id, source_id)
    # Stripe answers with the deleted card, not the customer.
    return resources.DeletedObject(card.id, card.object)


def _list_sources(id, object=None, limit=None, starting_after=None,
                  **kwargs):
    """localstripe's list, with Stripe's paging (`limit` 1-100,
    `starting_after`), and without filtering the customer's own list."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    if object not in (None, 'card', 'bank_account'):
        raise UserError(400, 'Invalid object')
    if limit is not None and not 1 <= _int_param(limit, 'limit') <= 100:
        raise UserError(400, 'Invalid limit: must be between 1 and 100')
    customer = resources.Customer._api_retrieve(id)  # 404
    page = resources.List('/v1/customers/%s/sources' % id, limit=limit,
                          starting_after=starting_after)
    page._list = [s for s in customer.sources._list
                  if object is None or s.object == object]
    return page


_update_customer = resources.Customer._api_update.__func__


@classmethod
def _update_customer_compat(cls, id, **data):
    if data.get('default_source') is not None:
        _owned_card(cls._api_retrieve(id), data['default_source'],
                    param='default_source')
    settings = data.get('invoice_settings')
    method = settings.get('default_payment_method') \
        if isinstance(settings, dict) else None
    if method:
        cls._api_retrieve(id)  # 404
        try:
            owner = resources.PaymentMethod._api_retrieve(method).customer
        except UserError:
            owner = None
        if owner != id:
            raise UserError(400, "No such PaymentMethod: '%s'" % method,
                            {'code': 'resource_missing', 'param':
                             'invoice_settings[default_payment_method]'})
    return _update_customer(cls, id, **data)


resources.Customer._api_update = _update_customer_compat


# --- cards as PaymentMethods, set up by SetupIntents ------------------------
#
# Stripe attaches the card of a confirmed SetupIntent to the intent's
# customer, refuses to attach a card another customer holds, and unsets the
# invoices' default card when that card is detached. A card authenticated
# when set up for off-session use is then charged off-session (a
# subscription's invoices) without authentication, except the test card that
# asks on every charge (4000 0027 6000 3184). localstripe does none of that.

ASKS_ON_EVERY_CHARGE = '4000002760003184'
_off_session = contextvars.ContextVar('off_session', default=False)
_requires_authentication = resources.PaymentMethod._requires_authentication


def _requires_authentication_compat(self):
    if _off_session.get() and getattr(self, '_set_up_off_session', False):
        return False
    return _requires_authentication(self)


resources.PaymentMethod._requires_authentication = \
    _requires_authentication_compat


def _confirm_setup_intent(id, **kwargs):
    seti = resources.SetupIntent._api_confirm(id, **kwargs)
    if seti.status == 'succeeded' and seti.payment_method:
        pm = resources.PaymentMethod._api_retrieve(seti.payment_method)
        if pm.customer is None and seti.customer:
            pm.customer = seti.customer
        if seti.usage == 'off_session' and \
                getattr(pm, '_card_number', None) != ASKS_ON_EVERY_CHARGE:
            pm._set_up_off_session = True
    return seti


def _attach_payment_method(id, customer=None, **kwargs):
    pm = resources.PaymentMethod._api_retrieve(id)  # 404
    if getattr(pm, 'customer', None) not in (None, customer):
        raise UserError(400, 'The payment method you provided has already '
                             'been attached to a customer.')
    return resources.PaymentMethod._api_attach(id, customer=customer,
                                               **kwargs)


def _detach_payment_method(id, **kwargs):
    owner = resources.PaymentMethod._api_retrieve(id).customer  # 404
    pm = resources.PaymentMethod._api_detach(id, **kwargs)
    if owner:
        settings = resources.Customer._api_retrieve(owner).invoice_settings
        if settings.get('default_payment_method') == id:
            settings['default_payment_method'] = None
    return pm


# --- cancelling a PaymentIntent, as Stripe does it ---------------------------

_CANCELABLE = ('requires_payment_method', 'requires_capture',
               'requires_confirmation', 'requires_action', 'processing')
_CANCELLATION_REASONS = ('duplicate', 'fraudulent', 'requested_by_customer',
                         'abandoned')


def _cancel_payment_intent(id, cancellation_reason=None, **kwargs):
    """localstripe's cancel, plus Stripe's `cancellation_reason`,
    `canceled_at`, its `payment_intent_unexpected_state` error (with the
    intent) for a payment that succeeded or was cancelled already, and the
    `payment_intent.canceled` webhook."""
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    if cancellation_reason is not None and \
            cancellation_reason not in _CANCELLATION_REASONS:
        raise UserError(400, 'Invalid cancellation_reason')
    pi = resources.PaymentIntent._api_retrieve(id)  # 404
    if pi.status not in _CANCELABLE:
        raise UserError(400, 'You cannot cancel this PaymentIntent because it '
                             'has a status of %s. Only a PaymentIntent with '
                             'one of the following statuses may be canceled: '
                             '%s.' % (pi.status, ', '.join(_CANCELABLE)),
                        {'code': 'payment_intent_unexpected_state',
                         'payment_intent': pi._export()})
    pi = resources.PaymentIntent._api_cancel(id)
    pi.canceled_at = int(time.time())
    pi.cancellation_reason = cancellation_reason
    resources.schedule_webhook(resources.Event('payment_intent.canceled', pi))
    return pi


# --- 3-D Secure, as the fake Stripe.js completes it --------------------------

def _authenticate(id, client_secret=None, success=False, **kwargs):
    """localstripe's `_authenticate` (what the fake Stripe.js's
    confirmCardPayment calls after its 3-D Secure box), plus what Stripe does
    when authentication fails: a `payment_intent.payment_failed` webhook and
    an error carrying the intent, so the fake Stripe.js answers `{error}` as
    the real one does instead of `{paymentIntent}`."""
    pi = resources.PaymentIntent._api_authenticate(
        id, client_secret=client_secret, success=success, **kwargs)
    if pi.status == 'requires_payment_method':
        resources.schedule_webhook(
            resources.Event('payment_intent.payment_failed', pi))
        error = dict(pi.last_payment_error,
                     doc_url='https://stripe.com/docs/error-codes/'
                             'payment-intent-authentication-failure',
                     payment_intent=pi._export())
        raise UserError(400, error.pop('message'), error)
    return pi


# Routes localstripe binds to its own functions at import time: served by
# the functions above instead (see override_middleware).
_OVERRIDES = {
    ('GET', '/v1/customers/{id}/sources'): _list_sources,
    ('POST', '/v1/customers/{id}/sources'): _add_source,
    ('DELETE', '/v1/customers/{id}/sources/{source_id}'): _remove_source,
    ('POST', '/v1/payment_intents/{id}/cancel'): _cancel_payment_intent,
    ('POST', '/v1/payment_intents/{id}/_authenticate'): _authenticate,
    ('POST', '/v1/setup_intents/{id}/confirm'): _confirm_setup_intent,
    ('POST', '/v1/payment_methods/{id}/attach'): _attach_payment_method,
    ('POST', '/v1/payment_methods/{id}/detach'): _detach_payment_method,
}


# The fake Stripe.js, made to behave as Stripe.js does where the site relies
# on it: its 3-D Secure box sits in the page's flow, under any dialog the site
# has open (the card-register dialog), while Stripe.js shows its challenge
# above everything; and a set-up whose authentication failed comes back
# without Stripe's error code.
_FAKE_JS_PATCHES = (
    ("'text-align': 'center',",
     "'text-align': 'center', position: 'fixed', 'z-index': '2147483647',"),
    ("return {error: {message:\n"
     "              'The latest attempt to set up the payment method has failed ' +",
     "return {error: {code: 'setup_intent_authentication_failure', message:\n"
     "              'The latest attempt to set up the payment method has failed ' +"),
)


def _fake_stripe_js(request):
    path = os.path.join(os.path.dirname(server.__file__), 'localstripe-v3.js')
    with open(path) as f:
        script = f.read()
    for original, patched in _FAKE_JS_PATCHES:
        if original not in script:
            raise RuntimeError('localstripe-v3.js changed: cannot patch %r'
                               % original)
        script = script.replace(original, patched, 1)
    return web.Response(text=script, content_type='application/javascript')


@web.middleware
async def override_middleware(request, handler):
    if request.method == 'GET' and request.path == '/js.stripe.com/v3/':
        return _fake_stripe_js(request)
    route = request.match_info.route
    resource = route.resource.canonical if route.resource else None
    override = _OVERRIDES.get((request.method, resource))
    if override is not None:
        return await server.api_extra(override, resource)(request)
    return await handler(request)


# --- subscriptions: a card per subscription, renewals, retries --------------
#
# localstripe creates a subscription on a plan (`items[0][plan]`) and charges
# its first invoice to the customer's default card, but never renews it. What
# is added here, in Stripe's shapes:
#
# * `default_payment_method` (a `card_...` or `pm_...` of the customer) on
#   create and update: that card pays the subscription's invoices.
# * `payment_behavior=error_if_incomplete`: a first payment that fails is a
#   402 `card_declined` and no subscription is left behind.
# * Every paid invoice sends `invoice.paid` and `invoice.payment_succeeded`;
#   a failed one `invoice.payment_failed` (with `attempt_count` and
#   `next_payment_attempt`); a change of status, card or
#   `cancel_at_period_end` sends `customer.subscription.updated`; the end
#   `customer.subscription.deleted`.
# * `POST /_test/subscriptions/{id}/advance` (secret key) plays the passing
#   of time, one step per call:
#     - an unpaid renewal is open: it is retried (a retry of Stripe's
#       schedule, which real Stripe spreads over days);
#     - else, when `cancel_at_period_end` is set: the period ends, the
#       subscription is `canceled` (`customer.subscription.deleted`);
#     - else the next period starts: a new invoice
#       (`billing_reason=subscription_cycle`) is charged to the card.
#   A failed renewal is tried RENEWAL_ATTEMPTS = 3 times in all (the renewal
#   and two retries, at the next two `advance` calls); while retries remain
#   the subscription is `past_due` and the failure carries
#   `next_payment_attempt` (3 and 5 days after the period start, Stripe's
#   default smart-retry spacing, for display only); the third failure has
#   `next_payment_attempt: null` and cancels the subscription (Stripe's
#   "cancel the subscription if all retries fail" setting).
#   The answer is the subscription after the step.
# * Card 4000000000000341 attaches fine and fails every charge: start a
#   subscription with another card, switch it to that one, advance.

RENEWAL_ATTEMPTS = 3
RETRY_DAYS = (3, 5)


def _customer_card(customer_id, card_id, param):
    """The customer's own card `card_id` (source or payment method)."""
    if not (isinstance(card_id, str) and
            card_id.startswith(('card_', 'pm_', 'src_'))):
        raise _no_such_source(card_id, param)
    customer = resources.Customer._api_retrieve(customer_id)
    for source in customer.sources._list:
        if source.id == card_id:
            return card_id
    pm = resources.PaymentMethod._api_retrieve(card_id)
    if getattr(pm, 'customer', None) != customer_id:
        raise _no_such_source(card_id, param)
    return card_id


_init_subscription = resources.Subscription.__init__


def _init_subscription_compat(self, default_payment_method=None,
                              payment_behavior='allow_incomplete', **kwargs):
    if default_payment_method is not None:
        _customer_card(kwargs.get('customer'), default_payment_method,
                       'default_payment_method')
    # Read by _pay_invoice while the original constructor charges the
    # first invoice.
    self.default_payment_method = default_payment_method
    self._period_start = None
    _init_subscription(self, payment_behavior=payment_behavior, **kwargs)
    if self.status == 'incomplete' and \
            payment_behavior == 'error_if_incomplete':
        invoice = resources.Invoice._api_retrieve(self.latest_invoice)
        charge = invoice.charge
        del resources.store[self.object + ':' + self.id]
        raise UserError(402, getattr(charge, 'failure_message', None) or
                        'Your card was declined.',
                        {'code': getattr(charge, 'failure_code', None) or
                         'card_declined', 'decline_code': 'generic_decline'})


resources.Subscription.__init__ = _init_subscription_compat


def _sub_period_start(self):
    start = getattr(self, '_period_start', None)
    return start if start is not None else self.start_date


def _sub_period_end(self):
    start = datetime.datetime.fromtimestamp(_sub_period_start(self),
                                            datetime.timezone.utc)
    interval = self.items._list[0].plan.interval
    if interval == 'day':
        end = start + datetime.timedelta(days=1)
    elif interval == 'week':
        end = start + datetime.timedelta(days=7)
    elif interval == 'year':
        end = start.replace(year=start.year + 1)
    else:
        month = start.month % 12 + 1
        year = start.year + (1 if start.month == 12 else 0)
        day = min(start.day, calendar.monthrange(year, month)[1])
        end = start.replace(year=year, month=month, day=day)
    return int(end.timestamp())


resources.Subscription.current_period_start = property(_sub_period_start)
resources.Subscription.current_period_end = property(_sub_period_end)

_update_subscription = resources.Subscription._update


def _update_subscription_compat(self, default_payment_method=None,
                                payment_behavior=None, **kwargs):
    if self.status in ('canceled', 'incomplete_expired'):
        raise UserError(400, 'A canceled subscription can only update its '
                             'cancellation_details and metadata.')
    if default_payment_method is not None:
        _customer_card(self.customer, default_payment_method,
                       'default_payment_method')
    _update_subscription(self, **kwargs)
    if default_payment_method is not None:
        self.default_payment_method = default_payment_method
    resources.schedule_webhook(
        resources.Event('customer.subscription.updated', self))


resources.Subscription._update = _update_subscription_compat

_next_payment_attempt = resources.Invoice.next_payment_attempt


def _next_payment_attempt_compat(self):
    if hasattr(self, '_next_attempt'):
        return self._next_attempt if self.status == 'open' else None
    return _next_payment_attempt.fget(self)


resources.Invoice.next_payment_attempt = property(_next_payment_attempt_compat)

_pay_invoice_original = resources.Invoice._api_pay_invoice.__func__


def _charge_invoice(invoice, sub):
    """One attempt at an invoice of a subscription, with its card."""
    card = sub.default_payment_method
    if card is None:
        cus = resources.Customer._api_retrieve(invoice.customer)
        pm = cus._get_default_payment_method_or_source()
        if pm is None:
            raise UserError(404, 'This customer has no payment method')
        card = pm.id
    pi = resources.PaymentIntent(amount=invoice.total,
                                 currency=invoice.currency,
                                 customer=invoice.customer,
                                 payment_method=card)
    invoice.payment_intent = pi.id
    pi.invoice = invoice.id
    off_session = _off_session.set(True)
    try:
        pi._confirm(on_failure_now=lambda: None)
    finally:
        _off_session.reset(off_session)
    return pi.status == 'succeeded'


@classmethod
def _pay_invoice(cls, id):
    invoice = resources.Invoice._api_retrieve(id)
    if not invoice.subscription or invoice.total <= 0:
        return _pay_invoice_original(cls, id)
    if invoice.status not in ('draft', 'open'):
        raise UserError(400, 'Invoice is already paid')
    invoice._draft = False
    sub = resources.Subscription._api_retrieve(invoice.subscription)
    invoice.attempt_count = 1
    invoice.billing_reason = invoice.billing_reason or 'subscription_create'
    _charge_invoice(invoice, sub)
    return invoice


resources.Invoice._api_pay_invoice = _pay_invoice

_invoice_paid = resources.Invoice._on_payment_success


def _invoice_paid_compat(self):
    # Stripe sends invoice.paid beside invoice.payment_succeeded, and a past
    # due subscription whose open invoice is paid (a renewal the supporter
    # authenticated) is active again.
    resources.schedule_webhook(resources.Event('invoice.paid', self))
    _invoice_paid(self)
    self._next_attempt = None
    if getattr(self, 'subscription', None):
        sub = resources.Subscription._api_retrieve(self.subscription)
        if sub.status == 'past_due':
            _set_status(sub, 'active')


resources.Invoice._on_payment_success = _invoice_paid_compat


def _set_status(sub, status):
    if sub.status != status:
        sub.status = status
        resources.schedule_webhook(
            resources.Event('customer.subscription.updated', sub))


def _end_subscription(sub):
    sub.status = 'canceled'
    sub.ended_at = int(time.time())
    sub.canceled_at = sub.canceled_at or sub.ended_at
    resources.schedule_webhook(
        resources.Event('customer.subscription.deleted', sub))


def _attempt_renewal(invoice, sub):
    paid = _charge_invoice(invoice, sub)
    if paid:
        invoice._next_attempt = None
        _set_status(sub, 'active')
        return
    if invoice.attempt_count < RENEWAL_ATTEMPTS:
        days = RETRY_DAYS[min(invoice.attempt_count, len(RETRY_DAYS)) - 1]
        invoice._next_attempt = invoice.period_start + days * 86400
    else:
        invoice._next_attempt = None
    resources.schedule_webhook(
        resources.Event('invoice.payment_failed', invoice))
    if invoice.attempt_count >= RENEWAL_ATTEMPTS:
        invoice._voided = True  # Stripe leaves it open; nothing retries it
        _end_subscription(sub)
    else:
        _set_status(sub, 'past_due')


def _open_renewal(sub):
    for key, obj in resources.store.items():
        if key.startswith('invoice:') and obj.subscription == sub.id and \
                obj.status == 'open' and \
                getattr(obj, 'billing_reason', None) == 'subscription_cycle':
            return obj
    return None


def _advance_subscription(id, **kwargs):
    if kwargs:
        raise UserError(400, 'Unexpected ' + ', '.join(kwargs.keys()))
    sub = resources.Subscription._api_retrieve(id)  # 404
    if sub.status in ('canceled', 'incomplete', 'incomplete_expired'):
        raise UserError(400, 'The subscription is %s' % sub.status)
    retry = _open_renewal(sub)
    if retry is not None:
        retry.attempt_count += 1
        _attempt_renewal(retry, sub)
        return sub
    if sub.cancel_at_period_end:
        sub._period_start = sub.current_period_end
        _end_subscription(sub)
        return sub
    sub._period_start = sub.current_period_end
    invoice = resources.Invoice(customer=sub.customer, subscription=sub.id,
                                items=list(sub.items._list),
                                date=sub.current_period_start)
    invoice.billing_reason = 'subscription_cycle'
    invoice._finalize()
    invoice.attempt_count = 1
    # As Stripe: the subscription names its newest invoice (what an ended one was last asked to pay).
    sub.latest_invoice = invoice.id
    resources.schedule_webhook(
        resources.Event('customer.subscription.updated', sub))
    _attempt_renewal(invoice, sub)
    return sub


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
    # A webhook task starts with the context of the request that scheduled
    # it: the events of a held request wait as long as its answer.
    held = _held_seconds.get()
    if held:
        await asyncio.sleep(held)
    await _send_webhook(_CompletedEvent(event))

webhooks._send_webhook = _send_completed_webhook


# --- Idempotency-Key, as Stripe honours it -----------------------------------

_idempotent = {}  # (secret key, key) -> (request fingerprint, status, body)


@web.middleware
async def idempotency_middleware(request, handler):
    if request.method == 'DELETE' and request.path == '/_config/data':
        _idempotent.clear()  # wiping the store forgets the keys too
        _cash_balances.clear()  # and the bank-transfer emulation's balances
        _used_tokens.clear()
        _refund_failures.clear()
    key = request.headers.get('Idempotency-Key')
    if request.method != 'POST' or not key or \
            request.path.startswith('/_config/'):
        return await handler(request)
    scope = (request.headers.get('Authorization', ''), key)
    # Stripe compares the parameters, not the bytes: a map (metadata) may
    # come in another order. Stable sort: a list keeps its values' order.
    params = sorted(urllib.parse.parse_qsl((await request.read()).decode(),
                                           keep_blank_values=True),
                    key=lambda pair: pair[0])
    fingerprint = hashlib.sha256(
        json.dumps([request.path, params]).encode()).hexdigest()
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


# --- a slow provider: hold the answer of one request -------------------------

_delays = []  # [(path, seconds, key_prefix)], used once each, first match first
_held_seconds = contextvars.ContextVar('held_seconds', default=0)


async def _delay_next(request):
    data = await request.post()
    path = data.get('path', '')
    try:
        seconds = float(data.get('seconds', ''))
    except ValueError:
        seconds = -1
    key_prefix = data.get('key_prefix', '')
    if not path.startswith('/v1/') or not 0 < seconds <= 300:
        return server.json_response({'error': {
            'type': 'invalid_request_error',
            'message': 'path must start with /v1/ and seconds be in ]0, 300]'
        }}, status=400)
    _delays.append((path, seconds, key_prefix))
    return server.json_response({'path': path, 'seconds': seconds,
                                 'key_prefix': key_prefix})


@web.middleware
async def delay_middleware(request, handler):
    if request.method == 'DELETE' and request.path == '/_config/data':
        _delays.clear()
    key = request.headers.get('Idempotency-Key', '')
    match = next((i for i, (path, _, prefix) in enumerate(_delays)
                  if request.method == 'POST' and path == request.path
                  and key.startswith(prefix)), None)
    if match is None:
        return await handler(request)
    _, seconds, _ = _delays.pop(match)
    _held_seconds.set(seconds)
    # Outermost: the request is carried out and its idempotent answer stored
    # before the hold, as at a provider whose answer is lost on the way back.
    response = await handler(request)
    logging.info('holding the answer to POST %s for %s s', request.path,
                 seconds)
    await asyncio.sleep(seconds)
    return response


def build_app():
    # Outermost first: a held answer is held after everything else;
    # idempotency replays the completed response; compat also sees
    # localstripe's errors, already turned into JSON responses.
    server.app.middlewares[0:0] = [delay_middleware, idempotency_middleware,
                                   compat_middleware]
    # Innermost: after localstripe's authentication, inside its error
    # handling (a UserError becomes Stripe's error JSON).
    server.app.middlewares.append(override_middleware)
    url = '/v1/test_helpers/customers/{id}/fund_cash_balance'
    server.app.router.add_post(url, server.api_extra(_fund_cash_balance, url))
    server.app.router.add_post('/_test/delay_next', _delay_next)
    url = '/_test/subscriptions/{id}/advance'
    server.app.router.add_post(url, server.api_extra(_advance_subscription,
                                                     url))
    server.app.router.add_delete('/_config/webhooks/{id}', _remove_webhook)
    server.app.router.add_post('/_test/refund_failures', _set_refund_failures)
    server.app.router.add_delete('/_test/refund_failures',
                                 _clear_refund_failures)
    url = '/_test/refunds/{id}/bank_details'
    server.app.router.add_post(url, server.api_extra(_give_bank_details, url))
    url = '/v1/refunds/{id}/cancel'
    server.app.router.add_post(url, server.api_extra(_cancel_refund, url))
    url = '/_test/konbini/{id}/pay'
    server.app.router.add_post(url, server.api_extra(_pay_konbini, url))
    url = '/_test/konbini/{id}/expire'
    server.app.router.add_post(url, server.api_extra(_expire_konbini, url))
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
