// Diesel table definitions for the tables this crate reads and writes.
// Kept in step with `migrations/` by hand; the migration round-trip test
// checks that every migration applies. Columns no diesel DSL query reads or writes may be left out, as
// `sales.konbini_voucher` and `projects.updated_at` are (diesel's 32-column limit; raw SQL reads them).

diesel::table! {
    users (id) {
        id -> Int8,
        email -> Text,
        status -> Text,
        password_hash -> Nullable<Text>,
        username -> Nullable<Text>,
        displayname -> Nullable<Text>,
        profile -> Nullable<Text>,
        age_group -> Nullable<Text>,
        corporatename -> Nullable<Text>,
        corporateurl -> Nullable<Text>,
        language -> Text,
        failed_login_count -> Int4,
        banned_until -> Nullable<Timestamptz>,
        password_changed_at -> Timestamptz,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    user_keys (id) {
        id -> Int8,
        user_id -> Int8,
        purpose -> Text,
        key_hash -> Text,
        new_email -> Nullable<Text>,
        expires_at -> Timestamptz,
        used_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    administrators (user_id) {
        user_id -> Int8,
        granted_at -> Timestamptz,
        granted_by -> Nullable<Int8>,
    }
}

diesel::table! {
    user_images (id) {
        id -> Int8,
        user_id -> Int8,
        image_type -> Int2,
        storage_key -> Text,
        url -> Text,
        content_type -> Text,
        byte_size -> Int4,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    projects (id) {
        id -> Int8,
        slug -> Text,
        title -> Text,
        description -> Text,
        content -> Text,
        target_amount -> Int8,
        period_end -> Date,
        funding_model -> Text,
        main_image_url -> Nullable<Text>,
        honor_img_url -> Nullable<Text>,
        honor_img_link -> Nullable<Text>,
        is_donation -> Bool,
        tax_includes -> Bool,
        bank_account -> Nullable<Text>,
        bank_branch -> Nullable<Text>,
        bank_kinds -> Nullable<Text>,
        bank_number -> Nullable<Text>,
        bank_nominee -> Nullable<Text>,
        connected_account_id -> Nullable<Text>,
        uses_manual_sponsors -> Bool,
        hide_footer_sponsors -> Bool,
        additional_data_label -> Nullable<Text>,
        additional_data_text -> Nullable<Text>,
        additional_data_description -> Nullable<Text>,
        additional_data_alert -> Nullable<Text>,
        additional_data_form_line -> Nullable<Int4>,
        created_at -> Timestamptz,
        accepts_card -> Bool,
        accepts_bank_transfer -> Bool,
        fee_schedule -> Text,
        donation_payout_date -> Nullable<Date>,
        accepts_konbini -> Bool,
    }
}

diesel::table! {
    project_owners (project_id) {
        project_id -> Int8,
        name -> Text,
        image_url -> Nullable<Text>,
        profile -> Nullable<Text>,
    }
}

diesel::table! {
    project_owner_links (id) {
        id -> Int8,
        project_id -> Int8,
        position -> Int4,
        label -> Text,
        url -> Text,
    }
}

diesel::table! {
    project_faqs (id) {
        id -> Int8,
        project_id -> Int8,
        position -> Int4,
        question -> Text,
        answer -> Text,
    }
}

diesel::table! {
    project_slider_images (id) {
        id -> Int8,
        project_id -> Int8,
        position -> Int4,
        src -> Text,
        alt -> Text,
    }
}

diesel::table! {
    returns (id) {
        id -> Int8,
        project_id -> Int8,
        slug -> Text,
        return_type -> Int2,
        title -> Text,
        description -> Text,
        price -> Int8,
        stock_limit -> Nullable<Int4>,
        lots_taken -> Int4,
        disabled -> Bool,
        disabled_comment -> Nullable<Text>,
        flag -> Int2,
        course -> Nullable<Text>,
        image_src -> Nullable<Text>,
        description_image -> Nullable<Text>,
        description_comment -> Nullable<Text>,
        lot_disable -> Bool,
        address_required -> Bool,
        address_label -> Nullable<Text>,
        show_user_email -> Nullable<Text>,
        position -> Int4,
        delivery_month -> Nullable<Date>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        interval -> Nullable<Text>,
    }
}

diesel::table! {
    project_news (id) {
        id -> Int8,
        project_id -> Int8,
        title -> Text,
        description -> Text,
        published_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        audience -> Text,
        return_ids -> Array<Int8>,
        mail_supporters -> Bool,
        mail_id -> Nullable<Int8>,
        mail_queued_at -> Nullable<Timestamptz>,
        updated_by -> Nullable<Int8>,
    }
}

diesel::table! {
    project_manual_sponsors (id) {
        id -> Int8,
        project_id -> Int8,
        course -> Text,
        name -> Text,
        logo_src -> Nullable<Text>,
        link -> Nullable<Text>,
        amount -> Nullable<Int8>,
        latest_date -> Nullable<Date>,
        position -> Int4,
    }
}

diesel::table! {
    project_sponsor_exclusions (project_id, user_id) {
        project_id -> Int8,
        user_id -> Int8,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    sales (id) {
        id -> Int8,
        project_id -> Int8,
        return_id -> Int8,
        user_id -> Int8,
        address_id -> Nullable<Int8>,
        price -> Int8,
        lot -> Int2,
        amount -> Int8,
        tax -> Int8,
        total -> Int8,
        application_fee -> Int8,
        connected_account_id -> Nullable<Text>,
        payment_type -> Int2,
        status -> Text,
        intent_id -> Nullable<Text>,
        idempotency_key -> Text,
        flag -> Int2,
        refunded_amount -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        paid_at -> Nullable<Timestamptz>,
        tax_mode -> Text,
        tax_rate_percent -> Int2,
        amount_remaining -> Nullable<Int8>,
        bank_instructions -> Nullable<Jsonb>,
        transfer_deadline -> Nullable<Date>,
        refund_required -> Bool,
        card_id -> Nullable<Text>,
        one_time_card_id -> Nullable<Text>,
        subscription_id -> Nullable<Int8>,
        invoice_id -> Nullable<Text>,
        intent_closed_at -> Nullable<Timestamptz>,
        // extra_amount (上乗せ支援) is written and read with SQL only: diesel's 32 columns.
    }
}

diesel::table! {
    display_names (id) {
        id -> Int8,
        sales_id -> Int8,
        user_id -> Int8,
        project_id -> Int8,
        return_id -> Int8,
        displayname -> Text,
        flag -> Int2,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    comments (id) {
        id -> Int8,
        project_id -> Int8,
        user_id -> Int8,
        sales_id -> Nullable<Int8>,
        return_id -> Nullable<Int8>,
        comment -> Text,
        flag -> Int2,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    addresses (id) {
        id -> Int8,
        user_id -> Int8,
        flag -> Int2,
        is_primary -> Bool,
        name -> Text,
        tel_number -> Text,
        zip -> Text,
        pref -> Text,
        city -> Text,
        address -> Text,
        building -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    sale_additional_data (id) {
        id -> Int8,
        sales_id -> Int8,
        project_id -> Int8,
        return_id -> Int8,
        user_id -> Int8,
        label -> Text,
        value -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    project_totals (project_id) {
        project_id -> Int8,
        paid_amount -> Int8,
        supports -> Int8,
    }
}

diesel::table! {
    return_totals (return_id) {
        return_id -> Int8,
        paid_amount -> Int8,
        supports -> Int8,
    }
}

diesel::table! {
    payment_customers (user_id) {
        user_id -> Int8,
        customer_id -> Text,
        default_card_id -> Nullable<Text>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    provider_events (event_id) {
        event_id -> Text,
        event_type -> Text,
        object_id -> Nullable<Text>,
        payload -> Jsonb,
        received_at -> Timestamptz,
        processed_at -> Nullable<Timestamptz>,
        attempts -> Int4,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    sponsor_totals (project_id, user_id) {
        project_id -> Int8,
        user_id -> Int8,
        amount -> Int8,
        supports -> Int8,
        latest_at -> Nullable<Timestamptz>,
        anonymous -> Bool,
        name -> Nullable<Text>,
        named_at -> Nullable<Timestamptz>,
        named_sale_id -> Nullable<Int8>,
        unnamed_logo_at -> Nullable<Timestamptz>,
        logo_type -> Nullable<Int2>,
    }
}

diesel::table! {
    project_receipt_issuers (project_id) {
        project_id -> Int8,
        issuer_name -> Text,
        registration_number -> Nullable<Text>,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    sale_receipts (sale_id) {
        sale_id -> Int8,
        addressee -> Text,
        issued_count -> Int4,
        first_issued_at -> Timestamptz,
        last_issued_at -> Timestamptz,
    }
}

diesel::table! {
    sale_deliveries (sale_id) {
        sale_id -> Int8,
        shipped_on -> Date,
        note -> Nullable<Text>,
        updated_by -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(user_keys -> users (user_id));
diesel::joinable!(project_slider_images -> projects (project_id));
diesel::joinable!(returns -> projects (project_id));
diesel::joinable!(project_owners -> projects (project_id));
diesel::joinable!(project_owner_links -> projects (project_id));
diesel::joinable!(project_faqs -> projects (project_id));
diesel::table! {
    favourite_mail_opt_ins (user_id) {
        user_id -> Int8,
        opted_in_at -> Timestamptz,
    }
}

diesel::table! {
    favourite_end_notices (project_id, user_id) {
        project_id -> Int8,
        user_id -> Int8,
        queued_at -> Timestamptz,
    }
}

diesel::joinable!(project_news -> projects (project_id));
diesel::joinable!(project_manual_sponsors -> projects (project_id));
diesel::joinable!(comments -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(
    users,
    user_keys,
    administrators,
    user_images,
    projects,
    project_slider_images,
    project_owners,
    project_owner_links,
    project_faqs,
    returns,
    project_news,
    project_manual_sponsors,
    project_sponsor_exclusions,
    sales,
    display_names,
    comments,
    addresses,
    sale_additional_data,
    payment_customers,
    provider_events,
    project_totals,
    return_totals,
    sponsor_totals,
    project_receipt_issuers,
    sale_receipts,
    sale_deliveries,
);
