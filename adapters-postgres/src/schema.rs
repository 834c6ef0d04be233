// Diesel table definitions for the tables this crate reads and writes.
// Kept in step with `migrations/` by hand; the migration round-trip test
// checks that every migration applies.

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

diesel::joinable!(user_keys -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(users, user_keys, administrators);
