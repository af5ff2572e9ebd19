// BG's launcher for FerretDB v1: a MongoDB-wire-protocol server over PostgreSQL or SQLite, built from the Go module
// proxy with `go build` (scripts/ferretdb.sh build). It embeds github.com/FerretDB/FerretDB/ferretdb, because the
// module's own cmd/ferretdb refuses to start when built outside FerretDB's repository (no build/version/version.txt).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "postgresql", "backend: postgresql or sqlite")
	pgURL := flag.String("postgresql-url", "", "PostgreSQL URL (handler postgresql)")
	sqliteURL := flag.String("sqlite-url", "", "SQLite directory URL, file:/ABS/DIR/ (handler sqlite)")
	level := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-bg: -log-level: %v\n", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       *handler,
		PostgreSQLURL: *pgURL,
		SQLiteURL:     *sqliteURL,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-bg: %v\n", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	logger.Warn("ferretdb-bg listening", "addr", *listen, "handler", *handler)
	if err := f.Run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "ferretdb-bg: %v\n", err)
		os.Exit(1)
	}
}
