from codehop.frontends.cli import main

main()
