import { Migration } from '@pp/db';

/**
 * Which event types the enabled webhooks want, kept as the webhooks change: for each type (`*` for
 * all of them), how many enabled webhooks want it and the earliest last change among them. Every
 * replica reads it every two seconds to bring its event consumers in line; it aggregated every enabled
 * webhook of every owner instead, a read that grew with the platform.
 *
 * A trigger keeps it, in the statement that changes a webhook (only when what counts changed: the
 * webhook enabled or not, its types, its last change), one type after the other in their order, so
 * that two changes lock the rows they share in one order. A webhook that held a type's earliest change
 * and changed or went has that type's time read again from the webhooks that want it.
 */
export class WantedEventTypesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table wanted_event_types (
      type text primary key,
      webhooks int not null,
      since timestamptz not null
    )`);
    this.addSql(`insert into wanted_event_types (type, webhooks, since)
      select t.type, count(distinct w.id), min(w.updated_at)
        from webhooks w, unnest(w.events) as t(type) where w.enabled group by t.type`);
    this.addSql(`create function webhooks_keep_wanted_event_types() returns trigger
      language plpgsql as $$
      declare
        t text;
        was boolean;
        wants boolean;
      begin
        for t in select e from unnest(case when tg_op <> 'INSERT' and old.enabled then old.events end) e
                 union
                 select e from unnest(case when tg_op <> 'DELETE' and new.enabled then new.events end) e
                 order by 1 loop
          was := tg_op <> 'INSERT' and old.enabled and t = any(old.events);
          wants := tg_op <> 'DELETE' and new.enabled and t = any(new.events);
          if wants then
            insert into wanted_event_types as w (type, webhooks, since) values (t, 1, new.updated_at)
              on conflict (type) do update set webhooks = w.webhooks + case when was then 0 else 1 end,
                since = case when w.webhooks = 0 then excluded.since else least(w.since, excluded.since) end;
          else
            update wanted_event_types set webhooks = webhooks - 1 where type = t;
          end if;
          -- it held the type's earliest change: read the type's time again from the webhooks that want it
          if was then
            update wanted_event_types w
               set since = coalesce((select min(x.updated_at) from webhooks x
                                      where x.enabled and x.events @> array[t]), w.since)
             where w.type = t and w.webhooks > 0 and w.since = old.updated_at;
          end if;
        end loop;
        return null;
      end $$`);
    this.addSql(`create trigger webhooks_wanted_event_types
      after insert or delete on webhooks
      for each row execute function webhooks_keep_wanted_event_types()`);
    this.addSql(`create trigger webhooks_wanted_event_types_changed
      after update of enabled, events, updated_at on webhooks
      for each row
      when ((old.enabled, old.events, old.updated_at) is distinct from (new.enabled, new.events, new.updated_at))
      execute function webhooks_keep_wanted_event_types()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger webhooks_wanted_event_types_changed on webhooks');
    this.addSql('drop trigger webhooks_wanted_event_types on webhooks');
    this.addSql('drop function webhooks_keep_wanted_event_types()');
    this.addSql('drop table wanted_event_types');
  }
}
